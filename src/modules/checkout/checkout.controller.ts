import { Body, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Principal } from '../../common/context/principal.js';
import { Errors } from '../../common/errors/error-catalog.js';
import {
  ApiErrors,
  Auth,
  CurrentPrincipal,
  ModeFromCredential,
  SessionPurposes,
  WalletController,
} from '../../common/http/decorators.js';
import { ApiListQuery, ApiListResponse, ListQueryParams, type ListQuery } from '../../common/list/index.js';
import { ChargeDto } from './dto/charge.dto.js';
import { CHARGE_LIST, ChargesService } from './charges.service.js';
import { CHECKOUT_LIST, CheckoutsService } from './checkouts.service.js';
import { CheckoutErrors as E } from './checkout.errors.js';
import { ConfirmCheckoutDto, CreateCheckoutDto, CreatePaymentLinkDto } from './dto/checkout.dto.js';
import { CreateInvoiceDto } from './dto/invoice.dto.js';
import { CancelPaymentIntentDto, CreatePaymentIntentDto } from './dto/payment-intent.dto.js';
import {
  CheckoutDto,
  CheckoutPaymentDto,
  HoldReleaseDto,
  InvoiceDto,
  PaymentIntentDto,
  PaymentLinkDto,
} from './dto/responses.dto.js';
import { INVOICE_LIST, InvoicesService } from './invoices.service.js';
import { PAYMENT_INTENT_LIST, PaymentIntentsService } from './payment-intents.service.js';
import { PAYMENT_LINK_LIST, PaymentLinksService } from './payment-links.service.js';
import { PaymentsService } from './payments.service.js';
import { CollectionTestHelpersService } from './test-helpers.service.js';

const TERMS_ERRORS = [Errors.E2000, Errors.E1303, Errors.E1304, E.E7011, E.E7012, E.E7013, E.E7014, E.E7017, E.E7019];

@WalletController('payment_intents')
export class PaymentIntentsController {
  constructor(private readonly intents: PaymentIntentsService) {}

  @Post()
  @HttpCode(200)
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'Create a payment intent (a collection target)' })
  @ApiOkResponse({ type: PaymentIntentDto })
  @ApiErrors(...TERMS_ERRORS)
  create(@Body() dto: CreatePaymentIntentDto) {
    return this.intents.create(dto);
  }

  @Get(':id')
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'Retrieve a payment intent' })
  @ApiOkResponse({ type: PaymentIntentDto })
  @ApiErrors(Errors.E4004)
  retrieve(@Param('id') id: string) {
    return this.intents.retrieve(id);
  }

  @Get()
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'List payment intents' })
  @ApiListQuery(PAYMENT_INTENT_LIST)
  @ApiListResponse(PaymentIntentDto)
  @ApiErrors(Errors.E2004)
  list(@ListQueryParams(PAYMENT_INTENT_LIST) query: ListQuery) {
    return this.intents.list(query);
  }

  @Post(':id/cancel')
  @HttpCode(200)
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'Cancel a payment intent that has not succeeded' })
  @ApiOkResponse({ type: PaymentIntentDto })
  @ApiErrors(Errors.E2000, Errors.E4004, E.E7016)
  cancel(@Param('id') id: string, @Body() dto: CancelPaymentIntentDto) {
    return this.intents.cancel(id, dto);
  }
}

@WalletController('invoices')
export class InvoicesController {
  constructor(private readonly invoices: InvoicesService) {}

  @Post()
  @HttpCode(200)
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'Create a draft invoice (a collection target once finalized)' })
  @ApiOkResponse({ type: InvoiceDto })
  @ApiErrors(...TERMS_ERRORS)
  create(@Body() dto: CreateInvoiceDto) {
    return this.invoices.create(dto);
  }

  @Get(':id')
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'Retrieve an invoice' })
  @ApiOkResponse({ type: InvoiceDto })
  @ApiErrors(Errors.E4004)
  retrieve(@Param('id') id: string) {
    return this.invoices.retrieve(id);
  }

  @Get()
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'List invoices' })
  @ApiListQuery(INVOICE_LIST)
  @ApiListResponse(InvoiceDto)
  @ApiErrors(Errors.E2004)
  list(@ListQueryParams(INVOICE_LIST) query: ListQuery) {
    return this.invoices.list(query);
  }

  @Post(':id/finalize')
  @HttpCode(200)
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'Finalize a draft invoice: it becomes open and payable' })
  @ApiOkResponse({ type: InvoiceDto })
  @ApiErrors(Errors.E4004, E.E7015)
  finalize(@Param('id') id: string) {
    return this.invoices.finalize(id);
  }

  @Post(':id/void')
  @HttpCode(200)
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'Void a draft or open invoice' })
  @ApiOkResponse({ type: InvoiceDto })
  @ApiErrors(Errors.E4004, E.E7015)
  void(@Param('id') id: string) {
    return this.invoices.void(id);
  }
}

@WalletController('checkouts')
export class CheckoutsController {
  constructor(
    private readonly checkouts: CheckoutsService,
    private readonly payments: PaymentsService,
  ) {}

  @Post()
  @HttpCode(200)
  @Auth('machine', 'user', 'superuser')
  @ModeFromCredential()
  @ApiOperation({
    summary: 'Create a checkout session for an invoice or a payment intent',
    description:
      'The mode comes from the credential (a secret key is test or live); with a bearer token X-Test-Mode is honoured. ' +
      '`session` is shown once; `url` carries it in its fragment.',
  })
  @ApiOkResponse({ type: CheckoutDto })
  @ApiErrors(
    Errors.E2000,
    Errors.E1303,
    Errors.E1304,
    E.E7001,
    E.E7002,
    E.E7003,
    E.E7004,
    E.E7007,
    E.E7009,
    E.E7010,
    E.E7012,
    Errors.E5000,
  )
  create(@Body() dto: CreateCheckoutDto) {
    return this.checkouts.create(dto);
  }

  @Get(':id')
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'Retrieve a checkout (without its session)' })
  @ApiOkResponse({ type: CheckoutDto })
  @ApiErrors(Errors.E4004)
  retrieve(@Param('id') id: string) {
    return this.checkouts.retrieve(id);
  }

  @Get()
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'List checkouts' })
  @ApiListQuery(CHECKOUT_LIST)
  @ApiListResponse(CheckoutDto)
  @ApiErrors(Errors.E2004)
  list(@ListQueryParams(CHECKOUT_LIST) query: ListQuery) {
    return this.checkouts.list(query);
  }

  @Post(':id/confirm')
  @HttpCode(200)
  @Auth('none')
  @SessionPurposes('checkout')
  @ApiOperation({
    summary: "Pay the checkout (hosted page, with the checkout's X-Session-Token)",
    description:
      'A card is charged at once (`succeeded` or `failed` with failure_code); PromptPay answers a `pending` charge with its QR code.',
  })
  @ApiOkResponse({ type: CheckoutPaymentDto })
  @ApiErrors(
    Errors.E2000,
    Errors.E4004,
    E.E7001,
    E.E7002,
    E.E7003,
    E.E7004,
    E.E7005,
    E.E7006,
    E.E7007,
    E.E7008,
    Errors.E5002,
  )
  confirm(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Body() dto: ConfirmCheckoutDto) {
    return this.payments.confirm(principal, id, dto);
  }
}

@WalletController('charges')
export class ChargesController {
  constructor(private readonly charges: ChargesService) {}

  @Get()
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'List charges' })
  @ApiListQuery(CHARGE_LIST)
  @ApiListResponse(ChargeDto)
  @ApiErrors(Errors.E2004)
  list(@ListQueryParams(CHARGE_LIST) query: ListQuery) {
    return this.charges.list(query);
  }

  @Get(':id')
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'Retrieve a charge' })
  @ApiOkResponse({ type: ChargeDto })
  @ApiErrors(Errors.E4004)
  retrieve(@Param('id') id: string) {
    return this.charges.retrieve(id);
  }
}

@WalletController('payment_links')
export class PaymentLinksController {
  constructor(private readonly links: PaymentLinksService) {}

  @Post()
  @HttpCode(200)
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'Create a payment link to an invoice or a payment intent' })
  @ApiOkResponse({ type: PaymentLinkDto })
  @ApiErrors(Errors.E2000, E.E7001, E.E7002, E.E7003, E.E7004)
  create(@Body() dto: CreatePaymentLinkDto) {
    return this.links.create(dto);
  }

  @Get()
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'List payment links' })
  @ApiListQuery(PAYMENT_LINK_LIST)
  @ApiListResponse(PaymentLinkDto)
  @ApiErrors(Errors.E2004)
  list(@ListQueryParams(PAYMENT_LINK_LIST) query: ListQuery) {
    return this.links.list(query);
  }

  @Get(':id')
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'Retrieve a payment link' })
  @ApiOkResponse({ type: PaymentLinkDto })
  @ApiErrors(Errors.E4004)
  retrieve(@Param('id') id: string) {
    return this.links.retrieve(id);
  }

  @Post(':id/deactivate')
  @HttpCode(200)
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'Deactivate a payment link: its page stops opening checkouts' })
  @ApiOkResponse({ type: PaymentLinkDto })
  @ApiErrors(Errors.E4004)
  deactivate(@Param('id') id: string) {
    return this.links.deactivate(id);
  }
}

@WalletController('test_helpers', { tag: 'test helpers' })
export class CollectionTestHelpersController {
  constructor(
    private readonly helpers: CollectionTestHelpersService,
    private readonly checkouts: CheckoutsService,
    private readonly payments: PaymentsService,
  ) {}

  @Post('checkouts/:id/expire')
  @HttpCode(200)
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'Test mode only: expire an open checkout now, as 24 hours would' })
  @ApiOkResponse({ type: CheckoutDto })
  @ApiErrors(Errors.E4004, Errors.E4040, E.E7006)
  expire(@Param('id') id: string) {
    return this.checkouts.expireForTest(id);
  }

  @Post('checkouts/:id/pay_promptpay')
  @HttpCode(200)
  @Auth('machine', 'user', 'superuser', 'none')
  @SessionPurposes('checkout')
  @ApiOperation({
    summary: "Test mode only: the buyer's bank pays the checkout's pending PromptPay QR code",
    description: "Callable by the merchant or by the hosted page with the checkout's session.",
  })
  @ApiOkResponse({ type: CheckoutPaymentDto })
  @ApiErrors(Errors.E4004, Errors.E4040, E.E7002, E.E7003, E.E7005, E.E7006, E.E7018)
  payPromptPay(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    return this.payments.payPromptPayForTest(principal, id);
  }

  @Post('holds/release')
  @HttpCode(200)
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: "Test mode only: release all of this application's held funds now" })
  @ApiOkResponse({ type: HoldReleaseDto })
  @ApiErrors(Errors.E4040)
  releaseHolds() {
    return this.helpers.releaseHolds();
  }
}
