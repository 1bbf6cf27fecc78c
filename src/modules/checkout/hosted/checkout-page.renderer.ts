import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Clock } from '../../../common/clock.js';
import type { ApplicationRef } from '../../../common/context/principal.js';
import { newNonce } from '../../../common/http/hosted-page.js';
import type { AllConfig } from '../../../config/app.config.js';
import type { ProviderCredentials } from '../../../config/provider-credentials.js';
import { effectiveStatus } from '../checkouts/checkouts.service.js';
import { collectedTarget } from '../checkouts/subscription-mode.js';
import type { Checkout } from '../entities/checkout.entity.js';
import type { SavedCardOffer } from '../payment-methods/saved-card-offers.service.js';
import { CollectionProviders } from '../payments/providers/collection-providers.js';
import { cardEntryOrigins, OMISE_JS, STRIPE_JS, type CardEntry } from './card-entry.js';
import { checkoutErrorPage } from './checkout-messages.js';
import { checkoutPage } from './checkout-page.js';
import type { HostedAnswer, HostedVisit } from './hosted-answer.js';

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
    config: ConfigService<AllConfig, true>,
  ) {
    this.credentials = config.get('app.providerCredentials', { infer: true });
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
    visit: HostedVisit,
    application: ApplicationRef,
    checkout: Checkout,
    description: string | null,
    notice: string | null = null,
    status = 200,
    savedCard: SavedCardOffer | null = null,
    promotionCode = false,
  ): HostedAnswer {
    const nonce = newNonce();
    const cardEntry: CardEntry = checkout.payment_method_types.includes('card')
      ? this.cardEntry(application.slug, checkout.id, checkout.country, checkout.livemode)
      : { provider: 'vault' };
    const pageStatus = effectiveStatus(checkout, this.clock.now());
    return {
      kind: 'page',
      status,
      nonce,
      html: checkoutPage({
        nonce,
        locale: visit.locale,
        query: visit.query,
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
        // Nothing to pay (a setup checkout, a subscription's trial): the page saves the card.
        setup: collectedTarget(checkout) === null,
        savedCard,
        promotionCode,
      }),
      // Only an open page takes a card; a paid or expired one loads nothing.
      origins: pageStatus === 'open' ? cardEntryOrigins(cardEntry) : {},
    };
  }

  notFound(visit: HostedVisit): HostedAnswer {
    const nonce = newNonce();
    return { kind: 'page', status: 404, nonce, html: checkoutErrorPage(nonce, visit.locale, 'checkoutNotFound') };
  }
}
