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
import { CheckoutDto, CheckoutPaymentDto, HoldReleaseDto } from '../dto/responses.dto.js';
import { CollectionTestHelpersService } from './test-helpers.service.js';

@WalletController('test_helpers', { tag: 'test helpers' })
@TestModeOnly()
export class CollectionTestHelpersController {
  constructor(private readonly helpers: CollectionTestHelpersService) {}

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
