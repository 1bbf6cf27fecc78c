import { Body, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, getSchemaPath } from '@nestjs/swagger';
import type { Principal } from '../../../common/context/principal.js';
import { Errors } from '../../../common/errors/error-catalog.js';
import {
  ApiErrors,
  Auth,
  CurrentPrincipal,
  ModeFromCredential,
  SessionPurposes,
  WalletController,
} from '../../../common/http/decorators.js';
import { IdOf } from '../../../common/http/id-param.pipe.js';
import { ApiListQuery, ApiListResponse, ListQueryParams, type ListQuery } from '../../../common/list/index.js';
import { CHECKOUT_LIST, CheckoutsService } from './checkouts.service.js';
import { CheckoutErrors as E } from '../checkout.errors.js';
import { BillingErrors, SubscriptionErrors } from '../../billing/index.js';
import { ConfirmCheckoutDto, CreateCheckoutDto } from '../dto/checkout.dto.js';
import { CheckoutDto, CheckoutPaymentDto, CheckoutSetupDto } from '../dto/responses.dto.js';
import { ConfirmCheckoutService } from '../payments/confirm-checkout.service.js';

@WalletController('checkouts')
export class CheckoutsController {
  constructor(
    private readonly checkouts: CheckoutsService,
    private readonly payments: ConfirmCheckoutService,
  ) {}

  @Post()
  @HttpCode(200)
  @Auth('machine', 'user', 'superuser')
  @ModeFromCredential()
  @ApiOperation({
    summary:
      'Create a checkout session for an invoice or a payment intent, (mode `setup`) to save a card, or (mode `subscription`) to subscribe',
    description:
      'The mode comes from the credential (a secret key is test or live); with a bearer token X-Test-Mode is honoured. ' +
      '`session` is shown once; `url` carries it in its fragment. Mode `setup` names the customer as target ' +
      '(`target_type: "customer"`) and charges nothing; the completed checkout names the saved card in `setup_payment_method`. ' +
      'Mode `subscription` (test mode) also names the subscribing customer: it creates the subscription from `line_items` and ' +
      '`subscription_data` and collects its first invoice (`subscription`, `invoice`; docs/BILLING.md "Subscription checkout").',
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
    E.E7014,
    E.E7033,
    E.E7034,
    E.E7070,
    E.E7071,
    E.E7072,
    E.E7073,
    E.E7074,
    E.E7075,
    E.E7400,
    E.E7401,
    E.E7402,
    E.E7403,
    SubscriptionErrors.E7710,
    SubscriptionErrors.E7711,
    SubscriptionErrors.E7712,
    SubscriptionErrors.E7713,
    SubscriptionErrors.E7714,
    SubscriptionErrors.E7715,
    SubscriptionErrors.E7717,
    SubscriptionErrors.E7719,
    SubscriptionErrors.E7721,
    BillingErrors.E7625,
    BillingErrors.E7631,
    BillingErrors.E7632,
    BillingErrors.E7633,
    BillingErrors.E7634,
    BillingErrors.E7635,
    BillingErrors.E7636,
    BillingErrors.E7637,
    BillingErrors.E7652,
    BillingErrors.E7653,
    Errors.E5000,
  )
  create(@CurrentPrincipal() principal: Principal, @Body() dto: CreateCheckoutDto) {
    return this.checkouts.create(principal, dto);
  }

  @Get(':id')
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'Retrieve a checkout (without its session)' })
  @ApiOkResponse({ type: CheckoutDto })
  @ApiErrors(Errors.E4004)
  retrieve(@CurrentPrincipal() principal: Principal, @Param('id', IdOf('checkout')) id: string) {
    return this.checkouts.retrieve(principal, id);
  }

  @Get()
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'List checkouts' })
  @ApiListQuery(CHECKOUT_LIST)
  @ApiListResponse(CheckoutDto)
  @ApiErrors(Errors.E2004)
  list(@CurrentPrincipal() principal: Principal, @ListQueryParams(CHECKOUT_LIST) query: ListQuery) {
    return this.checkouts.list(principal, query);
  }

  @Post(':id/confirm')
  @HttpCode(200)
  @Auth('none')
  @SessionPurposes('checkout')
  @ApiOperation({
    summary: "Pay the checkout (hosted page, with the checkout's X-Session-Token)",
    description:
      'A card is charged at once by its token (`succeeded` or `failed` with failure_code); PromptPay answers a `pending` charge with its QR code. ' +
      'Card data is never accepted here: a card number (or a field named like one, or a CVC) anywhere in the request is E2009.',
  })
  @ApiExtraModels(CheckoutPaymentDto, CheckoutSetupDto)
  @ApiOkResponse({
    description:
      'Mode `payment`: the payment attempt (`checkout_payment`); mode `setup`: the saved card (`checkout_setup`).',
    schema: { oneOf: [{ $ref: getSchemaPath(CheckoutPaymentDto) }, { $ref: getSchemaPath(CheckoutSetupDto) }] },
  })
  @ApiErrors(
    Errors.E2000,
    Errors.E2009,
    Errors.E4004,
    E.E7001,
    E.E7002,
    E.E7003,
    E.E7004,
    E.E7005,
    E.E7006,
    E.E7007,
    E.E7008,
    E.E7021,
    E.E7030,
    E.E7031,
    E.E7033,
    E.E7034,
    E.E7407,
    E.E7408,
    E.E7450,
    SubscriptionErrors.E7750,
    Errors.E5002,
  )
  confirm(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Body() dto: ConfirmCheckoutDto) {
    return this.payments.confirm(principal, id, dto);
  }
}
