import type { PageOrigins } from '../../../common/http/hosted-page.js';

/**
 * Who takes the card number on the hosted checkout page (docs/PROVIDERS.md, "Live card entry"):
 * this service's test-mode vault (the sandbox), or the provider's own script in the browser
 * (Opn: Omise.js with the mode's public key), which answers a token the payment API is given, or
 * Stripe's Payment Element (the mode's publishable key and a PaymentIntent's client secret), which
 * confirms the payment with Stripe itself.
 */
export type CardEntry =
  | { provider: 'vault' }
  | { provider: 'opn'; publicKey: string; script: string }
  | {
      provider: 'stripe';
      publishableKey: string;
      script: string;
      /** The hosted page's own endpoint that answers the PaymentIntent's client secret. */
      intent: string;
    };

/** Stripe.js (https://docs.stripe.com/js), which mounts the Payment Element. */
export const STRIPE_JS = 'https://js.stripe.com/v3';

/** Omise.js, Opn's browser tokenizer (https://docs.opn.ooo/omise-js). */
export const OMISE_JS = 'https://cdn.omise.co/omise.js';

/**
 * The origins each card entry needs beyond the page's own, and nothing more: Omise.js is loaded
 * from cdn.omise.co and posts the card to vault.omise.co (by XHR, or a frame it opens there).
 * The vault needs none: it is this service.
 */
export function cardEntryOrigins(entry: CardEntry): PageOrigins {
  if (entry.provider === 'opn') {
    return {
      script: ['https://cdn.omise.co'],
      frame: ['https://cdn.omise.co', 'https://vault.omise.co'],
      connect: ['https://vault.omise.co'],
    };
  }
  if (entry.provider === 'stripe') {
    // Stripe's published CSP for Stripe.js and the Payment Element (docs.stripe.com/security/guide).
    return {
      script: ['https://js.stripe.com'],
      frame: ['https://js.stripe.com', 'https://hooks.stripe.com'],
      connect: ['https://api.stripe.com'],
    };
  }
  return {};
}
