import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '../../../common/clock.js';
import { scopeOf, type ApplicationRef, type Mode } from '../../../common/context/principal.js';
import { RequestContext } from '../../../common/context/request-context.js';
import { AppError } from '../../../common/errors/app-error.js';
import { Errors } from '../../../common/errors/error-catalog.js';
import { newNonce } from '../../../common/http/hosted-page.js';
import { ApplicationResolver } from '../../../common/tenancy/application-resolver.js';
import { findInEitherMode } from '../../../common/tenancy/find-in-either-mode.js';
import { ApplicationsService } from '../../applications/index.js';
import { SessionsService } from '../../auth/index.js';
import { SubscriptionCheckoutsService } from '../../billing/index.js';
import { CheckoutErrors } from '../checkout.errors.js';
import { CheckoutsService, effectiveStatus } from '../checkouts/checkouts.service.js';
import { PaymentLinksService } from '../checkouts/payment-links.service.js';
import { collectedTarget } from '../checkouts/subscription-mode.js';
import type { Charge } from '../entities/charge.entity.js';
import type { Checkout } from '../entities/checkout.entity.js';
import { CardIntentsService } from '../payments/card-intents.service.js';
import { SavedCardOffersService } from '../payment-methods/saved-card-offers.service.js';
import { SetupCheckoutsService } from '../payment-methods/setup-checkouts.service.js';
import { ChargeOutcomesService } from '../payments/charge-outcomes.service.js';
import { ChargesService } from '../payments/charges.service.js';
import type { ProviderPayment } from '../../../providers/ports/collection.port.js';
import { CollectionProviders } from '../payments/providers/collection-providers.js';
import { TargetsService } from '../targets/targets.service.js';
import { checkoutErrorPage, RETURN_TEXT } from './checkout-messages.js';
import { CheckoutPageRenderer } from './checkout-page.renderer.js';
import { redirectToNewCheckout, type HostedAnswer, type HostedVisit } from './hosted-answer.js';

/** The providers that send a payer back here after 3-D Secure or a redirect flow (their adapters build the return URL; the sandbox in test mode). */
export const RETURN_PROVIDERS = ['opn', 'stripe', 'sandbox'] as const;

/** The ids the hosted routes look up: UUIDs as this service writes them (lower case). */
const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The hosted checkout and payment link pages (PUBLIC_URL/pay/...) and the 3-D Secure return route.
 * They carry no credential (the page's session is in the fragment, the return knows only a charge
 * id), so each looks its record up by id in both modes (findInEitherMode) and binds that mode.
 */
@Injectable()
export class HostedCheckoutsService {
  private readonly logger = new Logger(HostedCheckoutsService.name);

  constructor(
    private readonly resolver: ApplicationResolver,
    private readonly applications: ApplicationsService,
    private readonly context: RequestContext,
    private readonly sessions: SessionsService,
    private readonly checkouts: CheckoutsService,
    private readonly links: PaymentLinksService,
    private readonly targets: TargetsService,
    private readonly charges: ChargesService,
    private readonly cardIntents: CardIntentsService,
    private readonly setups: SetupCheckoutsService,
    private readonly savedCards: SavedCardOffersService,
    private readonly outcomes: ChargeOutcomesService,
    private readonly providers: CollectionProviders,
    private readonly pages: CheckoutPageRenderer,
    private readonly clock: Clock,
    private readonly subscriptionCheckouts: SubscriptionCheckoutsService,
  ) {}

  /**
   * The PaymentIntent of Stripe's Payment Element for the open checkout page (live card entry,
   * docs/PROVIDERS.md): the page's session (still valid: this records an attempt) gets
   * `{client_secret, return_url}`; Stripe.js confirms the payment with the card it takes, and
   * the payer comes back to the return route. Asked again (a reload), the same intent. A setup
   * checkout gets a SetupIntent instead (`{client_secret, setup: true}`, SetupCheckoutsService),
   * which the page confirms with `stripe.confirmSetup` and then sends to the confirm endpoint. Another
   * session, or a used or expired one: E1212; a checkout its country's provider serves by token: E7008.
   */
  async cardIntent(slug: string, id: string, visit: HostedVisit): Promise<HostedAnswer> {
    const application = await this.resolver.bySlug(slug);
    const session = application && visit.sessionToken ? await this.sessions.verify(visit.sessionToken) : null;
    if (
      !application ||
      !session ||
      session.purpose !== 'checkout' ||
      session.targetId !== id ||
      session.applicationId !== application.id
    ) {
      throw new AppError(Errors.E1212, 'This payment session is not valid for this checkout.');
    }
    const livemode = session.mode === 'live';
    const answer = await this.context.runInMode(
      session.mode,
      async () =>
        (await this.checkouts.find(application.id, id))?.mode === 'setup'
          ? { ...(await this.setups.prepareIntent(application, livemode, id)), setup: true }
          : this.cardIntents.prepare(application, livemode, id),
      { application },
    );
    return { kind: 'json', status: 200, body: { object: 'card_intent', ...answer } };
  }

  /**
   * The page's own status poll: what a reload would show, as JSON, for the page's session only
   * (the one the page was opened with, still accepted after the session completed or expired,
   * because it authorizes nothing here). `status` is the checkout's (by the service clock);
   * `redirect_url` the success_url once complete; `promptpay` the state of the pending QR code
   * (`pending`, `expired`) or null (none pending: never asked for, or already failed by the expiry
   * sweep). Unknown checkout or another session: 404 with no body worth reading.
   */
  async checkoutStatus(slug: string, id: string, visit: HostedVisit): Promise<HostedAnswer> {
    const token = visit.sessionToken;
    const application = await this.resolver.bySlug(slug);
    const found =
      application && token && ID.test(id)
        ? await this.inEitherMode(application, async () => {
            const checkout = await this.checkouts.find(application.id, id);
            if (!checkout || !(await this.sessions.identifies(token, 'checkout', checkout.id))) return null;
            const charge = checkout.pending_charge_id
              ? await this.charges.findById(application.id, checkout.pending_charge_id)
              : null;
            return { checkout, charge };
          })
        : null;
    if (!found) return { kind: 'json', status: 404, body: { object: 'checkout_status', status: null } };
    const { checkout, charge } = found;
    const now = this.clock.now();
    const status = effectiveStatus(checkout, now);
    // A checkout's pending PromptPay charge is its QR code (a pending card charge waits for 3-D
    // Secure); the sweep fails it and clears it once expired, before that its expires_at says so.
    const promptpay =
      charge === null || charge.status !== 'pending' || !charge.promptpay
        ? null
        : charge.expires_at !== null && charge.expires_at <= now
          ? 'expired'
          : 'pending';
    const body = { object: 'checkout_status', status, redirect_url: successUrlOf(checkout, status), promptpay };
    return { kind: 'json', status: 200, body };
  }

  async checkoutPage(slug: string, id: string, visit: HostedVisit): Promise<HostedAnswer> {
    const application = await this.resolver.bySlug(slug);
    const found = application
      ? await this.inEitherMode(application, async () => {
          const checkout = await this.checkouts.find(application.id, id);
          if (!checkout) return null;
          const description = await this.describe(application, checkout);
          return {
            checkout,
            description,
            savedCard: await this.savedCards.offerFor(application.id, checkout),
            promotionCode: await this.takesPromotionCode(application.id, checkout),
          };
        })
      : null;
    if (!application || !found) return this.pages.notFound(visit);
    const { checkout, description, savedCard, promotionCode } = found;
    return this.pages.render(visit, application, checkout, description, null, 200, savedCard, promotionCode);
  }

  /** A visit to a payment link: a fresh checkout on its target, and the browser sent on to its page. */
  async paymentLinkPage(slug: string, id: string, visit: HostedVisit): Promise<HostedAnswer> {
    const nonce = newNonce();
    const locale = visit.locale;
    const application = await this.resolver.bySlug(slug);
    const link = application
      ? await findInEitherMode(async (mode) => {
          const found = await this.context.runInMode(mode, () => this.links.find(scopeOf(application, mode), id), {
            application,
          });
          return found ? { mode, country: found.country } : null;
        })
      : null;
    if (!application || !link) {
      return { kind: 'page', status: 404, nonce, html: checkoutErrorPage(nonce, locale, 'linkNotFound') };
    }
    // The checkout opens in the language the link was opened in.
    return redirectToNewCheckout(nonce, visit, () =>
      this.context.runInMode(
        link.mode,
        () => this.links.openCheckout(scopeOf(application, link.mode, link.country), id),
        {
          application,
          country: link.country,
        },
      ),
    );
  }

  /**
   * The payer back from the card issuer's 3-D Secure page. The query the provider appends is
   * never read: the charge is read back from the provider with the mode's secret key and its
   * outcome applied by ChargeOutcomesService, the same path as the provider's webhook and the
   * reconciliation job (so whichever comes first applies it, once). Then the payer goes on: paid,
   * to the checkout's success_url (or the hosted page, which says it is paid); declined or failed,
   * the hosted page again with the reason, to try another card; still pending, the hosted page,
   * whose status poll moves on when the outcome arrives. A reload reads the charge as stored (a
   * final charge is not asked again) and answers the same.
   */
  async providerReturn(provider: string, chargeId: string, visit: HostedVisit): Promise<HostedAnswer> {
    const found =
      (RETURN_PROVIDERS as readonly string[]).includes(provider) && ID.test(chargeId)
        ? await this.returnedCharge(provider, chargeId)
        : null;
    const shown = found
      ? await this.context.runInMode(
          found.mode,
          async () => {
            const charge = await this.settle(provider, found.charge);
            const checkout = await this.checkouts.ofCharge(found.application.id, charge);
            return checkout
              ? { charge, checkout, description: await this.describe(found.application, checkout) }
              : null;
          },
          { application: found.application },
        )
      : null;
    if (!found || !shown) {
      if (visit.browser) return this.pages.notFound(visit);
      throw new AppError(CheckoutErrors.E7022, `No ${provider} charge has the id "${chargeId}".`);
    }
    const { application } = found;
    const { charge, checkout, description } = shown;
    if (charge.status === 'succeeded' && checkout.charge_id === charge.id) {
      const location =
        successUrlOf(checkout, 'complete') ??
        `/pay/${encodeURIComponent(application.slug)}/checkouts/${encodeURIComponent(checkout.id)}`;
      return { kind: 'redirect', location };
    }
    const text = RETURN_TEXT[visit.locale];
    const notice =
      charge.status === 'pending'
        ? text.pending
        : charge.failure_code === 'card_declined'
          ? text.declined
          : (charge.failure_message ?? text.failed);
    return this.pages.render(visit, application, checkout, description, notice);
  }

  /** The charge in either mode, when this provider made it, with its application. */
  private returnedCharge(provider: string, chargeId: string) {
    return findInEitherMode(async (mode) => {
      const charge = await this.context.runInMode(mode, () => this.charges.findInMode(chargeId));
      if (!charge || charge.provider !== provider || !charge.reference_id) return null;
      const application = (await this.applications.byIds([charge.application_id])).get(charge.application_id);
      return application ? { mode, charge, application } : null;
    });
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
    return (await this.charges.findInMode(charge.id)) ?? charge;
  }

  /** A subscription checkout with allow_promotion_codes whose subscription has no discount yet shows the code field. */
  private async takesPromotionCode(applicationId: string, checkout: Checkout): Promise<boolean> {
    if (checkout.mode !== 'subscription' || !checkout.allow_promotion_codes || !checkout.subscription_id) return false;
    return !(await this.subscriptionCheckouts.hasDiscount(applicationId, checkout.subscription_id));
  }

  /** The line under the amount: the target's, in the mode bound. */
  private describe(application: ApplicationRef, checkout: Checkout): Promise<string | null> {
    const collected = collectedTarget(checkout);
    if (!collected) return Promise.resolve('Save a card for future payments');
    return this.targets.description(application.id, collected.type, collected.id);
  }

  /** `find` in the first mode that has the record, with that mode and the application bound. */
  private inEitherMode<T>(application: ApplicationRef, find: () => Promise<T | null>): Promise<T | null> {
    return findInEitherMode((mode: Mode) => this.context.runInMode(mode, find, { application }));
  }
}

/** Where a complete checkout sends the payer: its success_url with the checkout's id, or null. */
function successUrlOf(checkout: Checkout, status: string): string | null {
  return status === 'complete' && checkout.success_url
    ? checkout.success_url.replaceAll('{CHECKOUT_ID}', checkout.id)
    : null;
}
