import Stripe from 'stripe';
import type {
  ProviderFailure,
  ProviderSavedCard,
  SaveCardRequest,
  SetupIntentRequest,
} from '../ports/collection.port.js';
import { cardFailure } from './stripe-errors.js';

/**
 * Saving a card at Stripe (docs/PROVIDERS.md, "Stripe"; docs/COLLECTION.md, "Saved payment
 * methods"): a SetupIntent the hosted page's Payment Element confirms (`stripe.confirmSetup`), read
 * back here with its PaymentMethod. Used by StripeCollectionProvider.
 */

/** A SetupIntent the browser confirms with the Payment Element (`stripe.confirmSetup`), for a setup checkout. */
export interface StripeSetupIntent {
  reference: string;
  clientSecret: string;
  /** The Stripe customer (`cus_…`) the confirmed card is attached to. */
  customer: string;
}

const SETI = /^seti_\w+$/;

/**
 * The SetupIntent a setup checkout's page confirms with the Payment Element (beyond the port:
 * SetupCheckoutsService.prepareIntent asks for it): `usage: off_session`, cards only, on the
 * customer's Stripe customer, created first when it has none (`POST /v1/customers`, keyed
 * `customer:{customer id}`). Keyed `setup:{checkout id}`, so a reload gets the same intent.
 */
export async function createSetupIntent(
  stripe: Stripe,
  request: SetupIntentRequest,
  providerError: (err: unknown) => Error,
): Promise<StripeSetupIntent> {
  try {
    const metadata = { customer_id: request.customerId, application_id: request.applicationId };
    const customer =
      request.providerCustomer ??
      (
        await stripe.customers.create(
          { ...(request.email ? { email: request.email } : {}), metadata },
          { idempotencyKey: `customer:${request.customerId}` },
        )
      ).id;
    const intent = await stripe.setupIntents.create(
      {
        customer,
        usage: 'off_session',
        allowed_payment_method_types: ['card'],
        metadata: { ...metadata, checkout_id: request.checkoutId },
      },
      { idempotencyKey: `setup:${request.checkoutId}` },
    );
    return { reference: intent.id, clientSecret: intent.client_secret ?? '', customer };
  } catch (err) {
    throw providerError(err);
  }
}

/**
 * Records the card a setup checkout's page confirmed: `token` is the SetupIntent (`seti_…`), read
 * back here with its PaymentMethod expanded (the browser's word is never taken): it must be this
 * checkout's, `succeeded`, on a Stripe customer, with a card. Anything else is `{failure}`.
 */
export async function readSetupIntent(
  stripe: Stripe,
  request: SaveCardRequest,
  providerError: (err: unknown) => Error,
): Promise<ProviderSavedCard | { failure: ProviderFailure }> {
  const refused = (message: string) => ({ failure: { code: 'setup_failed', reason: 'setup_failed', message } });
  if (!SETI.test(request.token)) return refused('Stripe saves cards by a confirmed SetupIntent (seti_…).');
  let intent: Stripe.SetupIntent;
  try {
    intent = await stripe.setupIntents.retrieve(request.token, { expand: ['payment_method'] });
  } catch (err) {
    if (err instanceof Stripe.errors.StripeInvalidRequestError && err.code === 'resource_missing') {
      return refused(`No SetupIntent ${request.token} at Stripe.`);
    }
    throw providerError(err);
  }
  if (intent.metadata?.checkout_id !== request.checkoutId || intent.metadata?.customer_id !== request.customerId) {
    return refused(`SetupIntent ${intent.id} is not this checkout's.`);
  }
  if (intent.status !== 'succeeded') {
    const e = intent.last_setup_error;
    if (e) return { failure: cardFailure(e.code, e.decline_code, e.message) };
    return refused(`SetupIntent ${intent.id} is ${intent.status}: the card was not confirmed.`);
  }
  const pm = intent.payment_method;
  const customer = typeof intent.customer === 'string' ? intent.customer : intent.customer?.id;
  if (!pm || typeof pm === 'string' || !pm.card || !customer) {
    return refused(`SetupIntent ${intent.id} holds no card of a Stripe customer.`);
  }
  const card = pm.card;
  return {
    reference: pm.id,
    customer,
    brand: card.brand.toLowerCase(),
    last4: card.last4,
    exp_month: card.exp_month,
    exp_year: card.exp_year,
    fingerprint: card.fingerprint ?? '',
    name: pm.billing_details?.name ?? null,
    funding: card.funding ?? null,
  };
}
