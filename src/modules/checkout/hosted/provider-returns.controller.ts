import { Body, Controller, Get, Header, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiProduces, ApiSeeOtherResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ApiErrors, Public } from '../../../common/http/decorators.js';
import { CheckoutErrors } from '../checkout.errors.js';
import { Errors } from '../../../common/errors/error-catalog.js';
import { sendHosted, visitOf } from './hosted-answer.js';
import { HostedCheckoutsService, RETURN_PROVIDERS } from './hosted-checkouts.service.js';
import { SandboxPaymentPage } from './sandbox-payment-page.js';

/**
 * Where Opn and Stripe send the payer after the card issuer's 3-D Secure page (the adapters give
 * them `<PUBLIC_URL>/provider_returns/<provider>/<charge id>` as return_uri / return_url);
 * HostedCheckoutsService.providerReturn applies the outcome and says where the payer goes.
 */
@ApiTags('provider_returns')
@Controller('provider_returns')
@Public()
export class ProviderReturnsController {
  constructor(
    private readonly hosted: HostedCheckoutsService,
    private readonly sandboxPayments: SandboxPaymentPage,
  ) {}

  @Get('sandbox/:charge_id/authorize')
  @ApiOperation({
    summary: 'Test mode: the sandbox’s payment page for a redirect flow (payer’s browser)',
    description:
      'Where a sandbox charge of a redirect type (TrueMoney, mobile banking, installments, FPX, GrabPay) sends the payer: it stands in for the app or bank page a provider opens, with “Authorize payment” and “Decline payment”. Then the payer goes to `/provider_returns/sandbox/{charge_id}`. Only a pending test-mode sandbox charge has one; anything else is the not-found page.',
  })
  @ApiParam({ name: 'charge_id', schema: { type: 'string', format: 'uuid' } })
  @ApiProduces('text/html')
  @ApiOkResponse({ description: 'The sandbox payment page.', content: { 'text/html': { schema: { type: 'string' } } } })
  @ApiErrors(CheckoutErrors.E7022)
  @Header('Cache-Control', 'no-store')
  @Header('Referrer-Policy', 'no-referrer')
  async sandboxPage(@Param('charge_id') chargeId: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    sendHosted(res, await this.sandboxPayments.page(chargeId, visitOf(req)));
  }

  @Post('sandbox/:charge_id/authorize')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Test mode: the payer authorizes or declines on the sandbox’s payment page',
    description:
      'Body `{outcome: "succeeded" | "failed"}`, sent by the sandbox page’s script. Answers `{return_url}`, the return route that applies the outcome. 404 for anything but a pending sandbox charge.',
  })
  @ApiParam({ name: 'charge_id', schema: { type: 'string', format: 'uuid' } })
  @ApiOkResponse({ schema: { type: 'object', properties: { return_url: { type: 'string' } } } })
  @ApiErrors(Errors.E2000, CheckoutErrors.E7022)
  @Header('Cache-Control', 'no-store')
  async sandboxAct(
    @Param('charge_id') chargeId: string,
    @Body() body: { outcome?: unknown },
    @Res() res: Response,
  ): Promise<void> {
    sendHosted(res, await this.sandboxPayments.act(chargeId, body?.outcome));
  }

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
