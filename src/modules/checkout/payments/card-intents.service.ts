import { Injectable } from '@nestjs/common';
import { Clock } from '../../../common/clock.js';
import type { ApplicationRef } from '../../../common/context/principal.js';
import { AppError } from '../../../common/errors/app-error.js';
import { CheckoutErrors } from '../checkout.errors.js';
import type { Charge } from '../entities/charge.entity.js';
import { ChargesService } from './charges.service.js';
import { CheckoutPaymentsService } from './checkout-payments.service.js';
import { isIntentProvider, reachProvider } from './provider-call.js';
import { CollectionProviders } from './providers/collection-providers.js';

/**
 * The Stripe Payment Element's PaymentIntent for the hosted page (live card entry, docs/PROVIDERS.md):
 * an attempt is recorded as for a card confirm (checkout and target locked, a pending charge the
 * checkout waits on), the PaymentIntent created at the provider with no transaction open (keyed by
 * the charge id, so asking again answers the same intent), and its reference kept on the charge.
 * The page confirms it with Stripe.js and the outcome arrives at the 3-D Secure return route or by
 * webhook; this service never sees the card. A page opened again reuses the charge still waiting.
 */
@Injectable()
export class CardIntentsService {
  constructor(
    private readonly payments: CheckoutPaymentsService,
    private readonly charges: ChargesService,
    private readonly providers: CollectionProviders,
    private readonly clock: Clock,
  ) {}

  async prepare(
    application: ApplicationRef,
    livemode: boolean,
    checkoutId: string,
  ): Promise<{ client_secret: string; return_url: string }> {
    const applicationId = application.id;
    const { charge, provider, checkout } = await this.payments.transaction(async (manager) => {
      const checkout = await this.payments.lockPayable(applicationId, checkoutId, manager);
      this.payments.assertMethodAllowed(checkout, 'card');
      const target = await this.payments.lockTarget(checkout, manager);
      const provider = this.providers.forCountry(checkout.country, livemode);
      if (!isIntentProvider(provider)) {
        throw new AppError(
          CheckoutErrors.E7008,
          `The ${provider.name} provider takes cards by token: confirm with {payment_method_type: "card", token}.`,
        );
      }
      if (checkout.pending_charge_id) {
        const waiting = await this.charges.lockById(applicationId, checkout.pending_charge_id, manager);
        if (isIntentWaiting(waiting, provider.name)) return { charge: waiting, provider, checkout };
        await this.payments.replacePending(checkout, this.clock.now(), manager);
      }
      const { charge } = await this.payments.newAttempt(checkout, target, provider.name, 'card', manager);
      return { charge, provider, checkout };
    });
    let intent: { reference: string; clientSecret: string; returnUrl: string };
    try {
      const destination = await this.payments.destinationOf(applicationId, checkout, provider.name, livemode);
      intent = await reachProvider(() =>
        provider.createCardIntent({
          applicationId,
          chargeId: charge.id,
          amount: Number(charge.amount),
          currency: charge.currency,
          scalingFactor: charge.scaling_factor,
          livemode,
          captureMethod: charge.capture_method === 'manual' ? 'manual' : 'automatic',
          destination,
        }),
      );
    } catch (err) {
      if (charge.reference_id === null) await this.payments.abandon(applicationId, checkoutId, charge.id, err);
      throw err;
    }
    if (charge.reference_id === null) {
      await this.payments.transaction(async (manager) => {
        const locked = await this.charges.lockById(applicationId, charge.id, manager);
        if (locked?.status !== 'pending' || locked.reference_id !== null) return;
        await this.charges.recordProviderFacts(
          locked,
          { reference_id: intent.reference, settlement_status: 'pending', next_action: [] },
          manager,
        );
      });
    }
    return { client_secret: intent.clientSecret, return_url: intent.returnUrl };
  }
}

/** The checkout's pending charge is this provider's PaymentIntent still waiting for the page. */
function isIntentWaiting(charge: Charge | null, provider: string): charge is Charge {
  return (
    charge?.status === 'pending' &&
    charge.provider === provider &&
    !charge.promptpay &&
    charge.reference_id?.startsWith('pi_') === true
  );
}
