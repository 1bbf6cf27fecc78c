import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { Request, Response } from 'express';
import { Clock } from '../../../../common/clock.js';
import type { ApplicationRef } from '../../../../common/context/principal.js';
import {
  HOSTED_PAGE_HEADERS,
  hostedPagePolicy,
  newNonce,
  pickLocale,
  type PageOrigins,
} from '../../../../common/http/hosted-page.js';
import type { AllConfig } from '../../../../config/app.config.js';
import type { ProviderCredentials } from '../../../../config/provider-credentials.js';
import { CollectionProviders } from '../../payments/providers/collection-providers.js';
import { CollectionRepository } from '../../checkout.repository.js';
import type { Checkout } from '../../entities/checkout.entity.js';
import { Invoice } from '../../entities/invoice.entity.js';
import { PaymentIntent } from '../../entities/payment-intent.entity.js';
import { effectiveStatus } from '../checkouts.service.js';
import { cardEntryOrigins, OMISE_JS, STRIPE_JS, type CardEntry } from './card-entry.js';
import { checkoutErrorPage, checkoutPage } from './checkout-page.js';

/** Sends a hosted page with its headers; `origins` are the provider origins its CSP allows (none by default). */
export function sendHostedPage(res: Response, status: number, nonce: string, html: string, origins: PageOrigins = {}) {
  res
    .status(status)
    .set({
      ...HOSTED_PAGE_HEADERS,
      'Content-Type': 'text/html; charset=utf-8',
      'X-Frame-Options': 'DENY',
      // The PromptPay QR code is a data: image.
      'Content-Security-Policy': hostedPagePolicy(nonce, 'data:', origins),
    })
    .send(html);
}

/**
 * Renders the hosted checkout page for GET /pay/{slug}/checkouts/{id} and for the 3-D Secure
 * return route (which shows it again with the decline). Decides who takes the card number: the
 * provider serving the checkout's country and mode, when it tokenizes in the browser (Opn with
 * its public key of that mode), else the test-mode vault; and allows exactly that provider's
 * origins in the page's Content-Security-Policy.
 */
@Injectable()
export class CheckoutPageRenderer {
  private readonly credentials: ProviderCredentials;

  constructor(
    private readonly providers: CollectionProviders,
    private readonly clock: Clock,
    private readonly repository: CollectionRepository,
    config: ConfigService<AllConfig, true>,
  ) {
    this.credentials = config.get('app.providerCredentials', { infer: true });
  }

  /** The line under the amount: the invoice's number, or the payment intent's description (mode bound). */
  async description(applicationId: string, checkout: Checkout): Promise<string | null> {
    if (checkout.target_type === 'invoice') {
      const invoice = await this.repository.find(Invoice, applicationId, checkout.target_id);
      return invoice ? `Invoice ${invoice.number}` : null;
    }
    return (await this.repository.find(PaymentIntent, applicationId, checkout.target_id))?.description ?? null;
  }

  cardEntry(slug: string, checkoutId: string, country: string, livemode: boolean): CardEntry {
    let name: string;
    try {
      name = this.providers.forCountry(country, livemode).name;
    } catch {
      // No provider for the country in this mode (E5003 when paying): nothing to load.
      return { provider: 'vault' };
    }
    const mode = livemode ? 'live' : 'test';
    const opn = this.credentials.opn[mode];
    if (name === 'opn' && opn) return { provider: 'opn', publicKey: opn.publicKey, script: OMISE_JS };
    const stripe = this.credentials.stripe[mode];
    if (name === 'stripe' && stripe) {
      return {
        provider: 'stripe',
        publishableKey: stripe.publicKey,
        script: STRIPE_JS,
        intent: `/pay/${encodeURIComponent(slug)}/checkouts/${encodeURIComponent(checkoutId)}/card_intent`,
      };
    }
    return { provider: 'vault' };
  }

  render(
    req: Request,
    res: Response,
    application: ApplicationRef,
    checkout: Checkout,
    description: string | null,
    notice: string | null = null,
    status = 200,
  ): void {
    const nonce = newNonce();
    const cardEntry: CardEntry = checkout.payment_method_types.includes('card')
      ? this.cardEntry(application.slug, checkout.id, checkout.country, checkout.livemode)
      : { provider: 'vault' };
    const pageStatus = effectiveStatus(checkout, this.clock.now());
    sendHostedPage(
      res,
      status,
      nonce,
      checkoutPage({
        nonce,
        locale: pickLocale(req),
        query: req.query,
        merchant: application.name,
        slug: application.slug,
        checkoutId: checkout.id,
        country: checkout.country,
        livemode: checkout.livemode,
        status: pageStatus,
        amount: Number(checkout.amount),
        currency: checkout.currency,
        scalingFactor: checkout.scaling_factor,
        description,
        paymentMethodTypes: checkout.payment_method_types,
        successUrl: checkout.success_url,
        cancelUrl: checkout.cancel_url,
        cardEntry,
        notice,
      }),
      // Only an open page takes a card; a paid or expired one loads nothing.
      pageStatus === 'open' ? cardEntryOrigins(cardEntry) : {},
    );
  }

  notFound(req: Request, res: Response, status = 404): void {
    const nonce = newNonce();
    sendHostedPage(res, status, nonce, checkoutErrorPage(nonce, pickLocale(req), 'checkoutNotFound'));
  }
}
