import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Principal } from '../../../common/context/principal.js';
import { Errors } from '../../../common/errors/error-catalog.js';
import { ApiErrors, Auth, CurrentPrincipal, SessionPurposes } from '../../../common/http/decorators.js';
import { CheckoutErrors as E } from '../checkout.errors.js';
import { CreateCardTokenDto } from '../dto/checkout.dto.js';
import { CardTokenDto } from '../dto/responses.dto.js';
import { CardTokensService } from './card-tokens.service.js';

/** The vault's own path prefix: not under the payment API's base path, whose card-data guard refuses card numbers. */
export const VAULT_ROUTE = 'api/v1/:app/vault';

/**
 * The test-mode card vault (the sandbox's vault.omise.co): the only route of this service that
 * takes a card number. Separate from the payment API (its own path prefix), called by the hosted
 * page's card form with the checkout's one-time session; the payment API then gets the token only.
 */
@ApiTags('vault')
@ApiParam({ name: 'app', description: 'The application slug.', example: 'demo' })
@Controller(VAULT_ROUTE)
export class VaultController {
  constructor(private readonly tokens: CardTokensService) {}

  @Post('tokens')
  @HttpCode(200)
  @Auth('none')
  @SessionPurposes('checkout')
  @ApiOperation({
    summary: "Test mode only: tokenize a card (hosted page, with the checkout's X-Session-Token)",
    description:
      'Checks the card (Luhn, expiry, CVC) and answers a single-use `tok_…`, valid 15 minutes, for this checkout only. ' +
      'The token keeps brand, last4, expiry, a fingerprint and the sandbox outcome the test number selects; never ' +
      'the number or the CVC. Pay with `POST /checkouts/{id}/confirm` `{payment_method_type: "card", token}`. Live mode has no vault (E4040): the card goes to the provider\'s own script.',
  })
  @ApiOkResponse({ type: CardTokenDto })
  @ApiErrors(Errors.E2000, Errors.E4040, E.E7008)
  create(@CurrentPrincipal() principal: Principal, @Body() dto: CreateCardTokenDto) {
    return this.tokens.create(principal, dto.card);
  }
}
