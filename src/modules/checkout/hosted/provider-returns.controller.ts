import { Controller, Get, Header, Param, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiProduces, ApiSeeOtherResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ApiErrors, Public } from '../../../common/http/decorators.js';
import { CheckoutErrors } from '../checkout.errors.js';
import { sendHosted, visitOf } from './hosted-answer.js';
import { HostedCheckoutsService, RETURN_PROVIDERS } from './hosted-checkouts.service.js';

/**
 * Where Opn and Stripe send the payer after the card issuer's 3-D Secure page (the adapters give
 * them `<PUBLIC_URL>/provider_returns/<provider>/<charge id>` as return_uri / return_url);
 * HostedCheckoutsService.providerReturn applies the outcome and says where the payer goes.
 */
@ApiTags('provider_returns')
@Controller('provider_returns')
@Public()
export class ProviderReturnsController {
  constructor(private readonly hosted: HostedCheckoutsService) {}

  @Get(':provider/:charge_id')
  @ApiOperation({
    summary: 'Return from 3-D Secure (payer’s browser)',
    description:
      'The payer’s browser lands here from Opn’s `authorize_uri` or Stripe’s `redirect_to_url` (Payment Element `return_url`). No credential: the service reads the charge back from the provider (query parameters are ignored) and applies its outcome as a webhook would. Answers 303 to the checkout’s `success_url` (or its hosted page) once paid; otherwise the hosted checkout page (200, HTML) with the decline, or waiting for the provider. Reloading is safe: an outcome is applied once. A charge id this provider did not charge: 404 E7022 (an HTML page for a browser navigation, the error object otherwise).',
  })
  @ApiParam({ name: 'provider', enum: RETURN_PROVIDERS, description: 'The provider that authenticated the card.' })
  @ApiParam({
    name: 'charge_id',
    description: 'The service’s charge id (not the provider’s reference).',
    schema: { type: 'string', format: 'uuid', example: '0193a9c2-7b1e-7c3d-9f00-5b2f1c3d4e5f' },
  })
  @ApiProduces('text/html', 'application/json')
  @ApiSeeOtherResponse({ description: 'Paid: `Location` is the checkout’s success_url, or its hosted page.' })
  @ApiOkResponse({
    description: 'Not paid (declined, failed, or still pending at the provider): the hosted checkout page.',
    content: { 'text/html': { schema: { type: 'string' } } },
  })
  @ApiErrors(CheckoutErrors.E7022)
  @Header('Cache-Control', 'no-store')
  @Header('Referrer-Policy', 'no-referrer')
  async returned(
    @Param('provider') provider: string,
    @Param('charge_id') chargeId: string,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    sendHosted(res, await this.hosted.providerReturn(provider, chargeId, visitOf(req)));
  }
}
