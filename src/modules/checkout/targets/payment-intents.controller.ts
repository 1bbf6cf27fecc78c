import { Body, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { Errors } from '../../../common/errors/error-catalog.js';
import type { Principal } from '../../../common/context/principal.js';
import { ApiErrors, Auth, CurrentPrincipal, WalletController } from '../../../common/http/decorators.js';
import { IdOf } from '../../../common/http/id-param.pipe.js';
import { ApiListQuery, ApiListResponse, ListQueryParams, type ListQuery } from '../../../common/list/index.js';
import { CheckoutErrors as E } from '../checkout.errors.js';
import { TERMS_ERRORS } from './terms-errors.js';
import { CancelPaymentIntentDto, CapturePaymentIntentDto, CreatePaymentIntentDto } from '../dto/payment-intent.dto.js';
import { PaymentIntentDto } from '../dto/responses.dto.js';
import { PAYMENT_INTENT_LIST, PaymentIntentsService } from './payment-intents.service.js';
import { OffSessionPaymentsService } from '../payment-methods/off-session-payments.service.js';
import { PaymentCapturesService } from '../payments/payment-captures.service.js';

@WalletController('payment_intents')
export class PaymentIntentsController {
  constructor(
    private readonly intents: PaymentIntentsService,
    private readonly offSession: OffSessionPaymentsService,
    private readonly captures: PaymentCapturesService,
  ) {}

  @Post()
  @HttpCode(200)
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({
    summary: 'Create a payment intent (a collection target), and optionally charge a saved card off-session',
    description:
      'With `customer_id`, `payment_method` (a saved card of that customer), `off_session: true` and `confirm: true` the card is charged at once: ' +
      '`succeeded`; declined: `requires_payment_method` with `last_payment_error` {code, message, decline_code}; ' +
      'authentication required: `requires_action` with `next_action.redirect_to_url.url`, a hosted page where the customer completes 3-D Secure.',
  })
  @ApiOkResponse({ type: PaymentIntentDto })
  @ApiErrors(...TERMS_ERRORS, E.E7103, E.E7030, E.E7031, E.E7032, E.E7034, E.E7035, Errors.E4090, Errors.E5002)
  create(@CurrentPrincipal() principal: Principal, @Body() dto: CreatePaymentIntentDto) {
    return this.offSession.create(principal, dto);
  }

  @Get(':id')
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'Retrieve a payment intent' })
  @ApiOkResponse({ type: PaymentIntentDto })
  @ApiErrors(Errors.E4004)
  retrieve(@CurrentPrincipal() principal: Principal, @Param('id', IdOf('payment intent')) id: string) {
    return this.intents.retrieve(principal, id);
  }

  @Get()
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'List payment intents' })
  @ApiListQuery(PAYMENT_INTENT_LIST)
  @ApiListResponse(PaymentIntentDto)
  @ApiErrors(Errors.E2004)
  list(@CurrentPrincipal() principal: Principal, @ListQueryParams(PAYMENT_INTENT_LIST) query: ListQuery) {
    return this.intents.list(principal, query);
  }

  @Post(':id/capture')
  @HttpCode(200)
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({
    summary: 'Capture an authorized payment intent (capture_method: manual)',
    description:
      'Captures `amount_to_capture` (default: all of `amount_capturable`) of a `requires_capture` intent at its provider and books it ' +
      'to the ledger; the rest of the authorization is released (`charge.amount_voided`). One capture per intent: ' +
      'a second is E7100; an expired authorization is E7104.',
  })
  @ApiOkResponse({ type: PaymentIntentDto })
  @ApiErrors(Errors.E2000, Errors.E4004, E.E7100, E.E7101, E.E7102, E.E7104, Errors.E5002)
  capture(
    @CurrentPrincipal() principal: Principal,
    @Param('id', IdOf('payment intent')) id: string,
    @Body() dto: CapturePaymentIntentDto,
  ) {
    return this.captures.capture(principal, id, dto);
  }

  @Post(':id/cancel')
  @HttpCode(200)
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({
    summary: 'Cancel a payment intent that has not succeeded',
    description:
      'An authorization the intent holds (status `requires_capture`) is voided at its provider: all of it is released.',
  })
  @ApiOkResponse({ type: PaymentIntentDto })
  @ApiErrors(Errors.E2000, Errors.E4004, E.E7016, Errors.E5002)
  cancel(
    @CurrentPrincipal() principal: Principal,
    @Param('id', IdOf('payment intent')) id: string,
    @Body() dto: CancelPaymentIntentDto,
  ) {
    return this.captures.cancel(principal, id, dto);
  }
}
