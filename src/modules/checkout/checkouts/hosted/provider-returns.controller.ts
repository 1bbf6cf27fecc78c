import { Controller, Get, Logger, Param, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiProduces, ApiSeeOtherResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import type { ApplicationRef, Mode } from '../../../../common/context/principal.js';
import { RequestContext } from '../../../../common/context/request-context.js';
import { AppError } from '../../../../common/errors/app-error.js';
import { ApiErrors, Public } from '../../../../common/http/decorators.js';
import { pickLocale, type HostedLocale } from '../../../../common/http/hosted-page.js';
import { ApplicationsService } from '../../../applications/index.js';
import { CheckoutErrors } from '../../checkout.errors.js';
import { CollectionRepository } from '../../checkout.repository.js';
import type { Charge } from '../../entities/charge.entity.js';
import { ChargeOutcomesService } from '../../payments/charge-outcomes.service.js';
import { ChargesRepository } from '../../payments/charges.repository.js';
import type { ProviderPayment } from '../../../../providers/ports/collection.port.js';
import { CollectionProviders } from '../../payments/providers/collection-providers.js';
import { CheckoutPageRenderer } from './checkout-page.renderer.js';

/** The providers that send a payer back here after 3-D Secure (their adapters build the return URL). */
export const RETURN_PROVIDERS = ['opn', 'stripe'] as const;
const MODES: Mode[] = ['test', 'live'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** What the checkout page says when the payer comes back from a 3-D Secure that did not pay. */
const RETURN_TEXT = {
  en: {
    declined: 'Your card was declined. Try another card or payment method.',
    failed: 'The card payment was not completed.',
    pending: 'Your bank is still confirming the payment. This page moves on by itself once it is done.',
  },
  th: {
    declined: 'บัตรของคุณถูกปฏิเสธ กรุณาใช้บัตรหรือวิธีชำระเงินอื่น',
    failed: 'การชำระเงินด้วยบัตรไม่สำเร็จ',
    pending: 'ธนาคารของคุณกำลังยืนยันการชำระเงิน หน้านี้จะไปต่อเองเมื่อเสร็จสิ้น',
  },
} satisfies Record<HostedLocale, Record<string, string>>;

interface Found {
  mode: Mode;
  charge: Charge;
  application: ApplicationRef;
}

/**
 * Where Opn and Stripe send the payer after the card issuer's 3-D Secure page (the adapters give
 * them `<PUBLIC_URL>/provider_returns/<provider>/<charge id>` as return_uri / return_url). The
 * query the provider appends is never read: the charge is read back from the provider with the
 * mode's secret key and its outcome applied by ChargeOutcomesService, the same path as the
 * provider's webhook and the reconciliation job (so whichever comes first applies it, once).
 * Then the payer goes on: paid, to the checkout's success_url (or the hosted page, which says it
 * is paid); declined or failed, the hosted page again with the reason, to try another card;
 * still pending, the hosted page, whose status poll moves on when the outcome arrives. A reload
 * reads the charge as stored (a final charge is not asked again) and answers the same.
 */
@ApiTags('provider_returns')
@Controller('provider_returns')
@Public()
export class ProviderReturnsController {
  private readonly logger = new Logger(ProviderReturnsController.name);

  constructor(
    private readonly charges: ChargesRepository,
    private readonly outcomes: ChargeOutcomesService,
    private readonly providers: CollectionProviders,
    private readonly repository: CollectionRepository,
    private readonly applications: ApplicationsService,
    private readonly context: RequestContext,
    private readonly pages: CheckoutPageRenderer,
  ) {}

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
  async returned(
    @Param('provider') provider: string,
    @Param('charge_id') chargeId: string,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    res.set({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' });
    const found =
      (RETURN_PROVIDERS as readonly string[]).includes(provider) && UUID.test(chargeId)
        ? await this.find(provider, chargeId)
        : null;
    if (!found) return this.unknown(req, res, provider, chargeId);
    const { mode, application } = found;
    const shown = await this.context.runInMode(
      mode,
      async () => {
        const charge = await this.settle(provider, found.charge);
        const checkout = await this.repository.checkoutOfCharge(application.id, charge);
        return checkout
          ? { charge, checkout, description: await this.pages.description(application.id, checkout) }
          : null;
      },
      { application },
    );
    if (!shown) return this.unknown(req, res, provider, chargeId);
    const { charge, checkout, description } = shown;
    if (charge.status === 'succeeded' && checkout.charge_id === charge.id) {
      const next = checkout.success_url
        ? checkout.success_url.replaceAll('{CHECKOUT_ID}', checkout.id)
        : `/pay/${encodeURIComponent(application.slug)}/checkouts/${encodeURIComponent(checkout.id)}`;
      res.redirect(303, next);
      return;
    }
    const text = RETURN_TEXT[pickLocale(req)];
    const notice =
      charge.status === 'pending'
        ? text.pending
        : charge.failure_code === 'card_declined'
          ? text.declined
          : (charge.failure_message ?? text.failed);
    this.pages.render(req, res, application, checkout, description, notice);
  }

  /** The charge in either mode (ids are UUIDv7, unique across both), when this provider made it. */
  private async find(provider: string, chargeId: string): Promise<Found | null> {
    for (const mode of MODES) {
      const charge = await this.context.runInMode(mode, () => this.charges.byIdInMode(chargeId));
      if (!charge) continue;
      if (charge.provider !== provider || !charge.reference_id) return null;
      const application = (await this.applications.byIds([charge.application_id])).get(charge.application_id);
      return application ? { mode, charge, application } : null;
    }
    return null;
  }

  /**
   * A pending charge is read back from its provider and the outcome applied (once, under the
   * checkout's and charge's locks); a final one is left as it is. The charge as stored after.
   */
  private async settle(provider: string, charge: Charge): Promise<Charge> {
    if (charge.status !== 'pending') return charge;
    let answer: ProviderPayment;
    try {
      answer = await this.providers.named(provider).confirmPromptPay(charge.reference_id!);
    } catch (err) {
      // The provider did not answer: the page waits (its status poll); the webhook or the
      // reconciliation job applies the outcome.
      this.logger.warn({ err }, `charge ${charge.id}: ${provider} could not be asked after 3-D Secure`);
      return charge;
    }
    if (answer.status !== 'pending') {
      const result = await this.outcomes.apply(provider, answer);
      this.logger.log(`charge ${charge.id}: ${provider} 3-D Secure return ${answer.status} (${result})`);
    }
    return (await this.charges.byIdInMode(charge.id)) ?? charge;
  }

  /** 404 E7022: a page for a browser's navigation, the error object for anything else. */
  private unknown(req: Request, res: Response, provider: string, chargeId: string): void {
    const mode = req.headers['sec-fetch-mode'];
    const browser = mode === 'navigate' || (mode === undefined && req.accepts(['json', 'html']) === 'html');
    if (browser) return this.pages.notFound(req, res);
    throw new AppError(CheckoutErrors.E7022, `No ${provider} charge has the id "${chargeId}".`);
  }
}
