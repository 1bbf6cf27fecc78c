import { HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Principal } from '../../../common/context/principal.js';
import { Errors } from '../../../common/errors/error-catalog.js';
import {
  ApiErrors,
  Auth,
  CurrentPrincipal,
  SessionPurposes,
  WalletController,
} from '../../../common/http/decorators.js';
import { IdOf } from '../../../common/http/id-param.pipe.js';
import { TestModeOnly } from '../../../common/http/test-mode-only.js';
import { CheckoutErrors as E } from '../checkout.errors.js';
import { CheckoutDto, CheckoutPaymentDto, HoldReleaseDto, PaymentIntentDto } from '../dto/responses.dto.js';
import { ChargeDto } from '../dto/charge.dto.js';
import { PaymentCapturesService } from './payment-captures.service.js';
import { CollectionTestHelpersService } from './test-helpers.service.js';

@WalletController('test_helpers', { tag: 'test helpers' })
@TestModeOnly()
export class CollectionTestHelpersController {
  constructor(
    private readonly helpers: CollectionTestHelpersService,
    private readonly captures: PaymentCapturesService,
  ) {}

  @Post('checkouts/:id/expire')
  @HttpCode(200)
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'Test mode only: expire an open checkout now, as 24 hours would' })
  @ApiOkResponse({ type: CheckoutDto })
  @ApiErrors(Errors.E4004, Errors.E4040, E.E7006)
  expire(@CurrentPrincipal() principal: Principal, @Param('id', IdOf('checkout')) id: string) {
    return this.helpers.expireCheckout(principal, id);
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
    return this.helpers.payPromptPay(principal, id);
  }

  @Post('charges/:id/succeed')
  @HttpCode(200)
  @Auth('machine', 'user', 'superuser', 'none')
  @SessionPurposes('checkout')
  @ApiOperation({
    summary: 'Test mode only: the buyer pays a pending QR or redirect charge (any type but card)',
    description:
      'What the buyer does in the app, bank or wallet (PromptPay, TrueMoney, mobile banking, installments, PayNow, FPX, ' +
      "GrabPay): the provider's test mode is told, its answer read back and applied as its webhook's would be, once. " +
      "Callable by the merchant or by the hosted page with the checkout's session. A charge that is not pending, a card " +
      'charge, or one whose provider has no test simulation is E7409.',
  })
  @ApiOkResponse({ type: ChargeDto })
  @ApiErrors(Errors.E4004, Errors.E4040, E.E7409, Errors.E5002)
  succeedCharge(@CurrentPrincipal() principal: Principal, @Param('id', IdOf('charge')) id: string) {
    return this.helpers.settleCharge(principal, id, 'succeeded');
  }

  @Post('charges/:id/fail')
  @HttpCode(200)
  @Auth('machine', 'user', 'superuser', 'none')
  @SessionPurposes('checkout')
  @ApiOperation({
    summary: 'Test mode only: a pending QR or redirect charge fails (the buyer abandons or the bank declines)',
    description:
      'The charge fails (`failure_code: payment_failed`), its checkout stays open for another attempt and its payment ' +
      'intent returns to `requires_payment_method`, as when the provider reports the failure. Same rules as `succeed`.',
  })
  @ApiOkResponse({ type: ChargeDto })
  @ApiErrors(Errors.E4004, Errors.E4040, E.E7409, Errors.E5002)
  failCharge(@CurrentPrincipal() principal: Principal, @Param('id', IdOf('charge')) id: string) {
    return this.helpers.settleCharge(principal, id, 'failed');
  }

  @Post('payment_intents/:id/expire_authorization')
  @HttpCode(200)
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({
    summary: "Test mode only: expire a manual-capture intent's authorization now, as 7 days uncaptured would",
    description:
      'The authorization of a `requires_capture` intent is voided at its provider as the expiry job voids it: the charge ' +
      '`canceled` (`charge.expired`), the intent `canceled` with `cancellation_reason: automatic`. An intent holding no ' +
      'authorization is E7101; one whose authorization already expired is E7104; one with a capture in progress is E7100.',
  })
  @ApiOkResponse({ type: PaymentIntentDto })
  @ApiErrors(Errors.E4004, Errors.E4040, E.E7100, E.E7101, E.E7104, Errors.E5002)
  expireAuthorization(@CurrentPrincipal() principal: Principal, @Param('id', IdOf('payment intent')) id: string) {
    return this.captures.expireNow(principal, id);
  }

  @Post('holds/release')
  @HttpCode(200)
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: "Test mode only: release all of this application's held funds now" })
  @ApiOkResponse({ type: HoldReleaseDto })
  @ApiErrors(Errors.E4040)
  releaseHolds(@CurrentPrincipal() principal: Principal) {
    return this.helpers.releaseHolds(principal);
  }
}
