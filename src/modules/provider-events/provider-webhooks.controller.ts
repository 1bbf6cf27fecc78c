import { Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiBody, ApiExcludeEndpoint, ApiHeader, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { Errors } from '../../common/errors/error-catalog.js';
import { ApiErrors, Public } from '../../common/http/decorators.js';
import { rawBodyOf } from '../../common/http/raw-body.js';
import { OpnWebhookBodyDto, ProviderWebhookReceiptDto, StripeWebhookBodyDto } from './dto/provider-webhook.dto.js';
import { ProviderEventErrors } from './provider-events.errors.js';
import { ProviderEventsService, type ProviderWebhookReceipt } from './provider-events.service.js';

/**
 * Where providers deliver their webhooks: `<PUBLIC_URL>/provider_webhooks/<provider>`, configured
 * in each provider's dashboard. No API key: the provider's webhook port verifies each event (Opn:
 * read back by id; Stripe: Stripe-Signature). 200 once applied (or seen before), 400 when forged,
 * 503 when the provider could not be asked (it delivers again). Opn's and Stripe's routes are
 * declared on their own only to document them; every provider is served by `receive`.
 */
@ApiTags('provider_webhooks')
@Controller('provider_webhooks')
@Public()
export class ProviderWebhooksController {
  constructor(private readonly events: ProviderEventsService) {}

  @Post('opn')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Receive an Opn Payments webhook',
    description:
      'Opn does not sign its webhooks: only the event id is read from the body, and the event is read back from Opn (`GET /events/{id}`) with the secret key of its mode before anything changes. `charge.complete` settles a pending PromptPay or 3-D Secure charge; `refund.*` a pending refund; `transfer.*` a payout. Applying an event twice changes nothing.',
  })
  @ApiBody({ type: OpnWebhookBodyDto })
  @ApiOkResponse({ type: ProviderWebhookReceiptDto })
  @ApiErrors(
    Errors.E2000,
    Errors.E2002,
    ProviderEventErrors.E5201,
    ProviderEventErrors.E5203,
    ProviderEventErrors.E5202,
  )
  opn(@Req() req: Request): Promise<ProviderWebhookReceipt> {
    return this.events.receive('opn', rawBodyOf(req), req.headers);
  }

  @Post('stripe')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Receive a Stripe webhook',
    description:
      'Verified with `Stripe-Signature` (HMAC-SHA256 of the raw body with the endpoint’s `whsec_…` secret of the event’s mode, 300 s tolerance) before anything changes. `payment_intent.succeeded` / `payment_intent.payment_failed` settle a pending PromptPay or 3-D Secure charge; `refund.*` a pending refund; `payout.*` a payout. Applying an event twice changes nothing.',
  })
  @ApiHeader({
    name: 'Stripe-Signature',
    required: true,
    description: 'Stripe’s signature header: `t=<timestamp>,v1=<hex HMAC-SHA256>`.',
    schema: {
      type: 'string',
      example: 't=1700000000,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd',
    },
  })
  @ApiBody({ type: StripeWebhookBodyDto })
  @ApiOkResponse({ type: ProviderWebhookReceiptDto })
  @ApiErrors(Errors.E2000, Errors.E2002, ProviderEventErrors.E5201, ProviderEventErrors.E5203)
  stripe(@Req() req: Request): Promise<ProviderWebhookReceipt> {
    return this.events.receive('stripe', rawBodyOf(req), req.headers);
  }

  /** Every plugged provider (Opn and Stripe too); left out of the OpenAPI document, which shows the two routes above. */
  @Post(':provider')
  @HttpCode(200)
  @ApiExcludeEndpoint()
  receive(@Param('provider') provider: string, @Req() req: Request): Promise<ProviderWebhookReceipt> {
    return this.events.receive(provider, rawBodyOf(req), req.headers);
  }
}
