import { opnClientOptions } from '../providers/opn/opn-config.js';
import type { OpnClientOptions } from '../providers/opn/opn-client.js';
import { stripeClientOptions, type StripeClientOptions } from '../providers/stripe/stripe-config.js';
import { MODES } from '../common/tenancy/modes.js';
import type { ProviderCredentials, ProviderMode } from './provider-credentials.js';

type Env = Record<string, string | undefined>;

/**
 * The settings of each real provider's client per mode (keys, base URL, deadline, Stripe's
 * webhook signing secret), read at boot from the environment by the adapters' own readers
 * (src/providers/opn/opn-config.ts, src/providers/stripe/stripe-config.ts). A mode without keys
 * has no client. Prints as `[redacted provider clients]` (JSON and util.inspect): a logged config
 * object never carries a key.
 */
export class ProviderClients {
  constructor(
    readonly opn: Partial<Record<ProviderMode, OpnClientOptions>>,
    readonly stripe: Partial<Record<ProviderMode, StripeClientOptions>>,
    /** The payer email Stripe requires for PromptPay (`billing_details.email`): STRIPE_PROMPTPAY_EMAIL. */
    readonly stripePromptPayEmail: string,
  ) {}

  toJSON(): string {
    return '[redacted provider clients]';
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return this.toJSON();
  }
}

/**
 * Builds the clients' settings for the modes whose keys `loadProviderCredentials` found (so a key
 * is validated once, with its pair). Errors name the variable, never the value.
 */
export function loadProviderClients(
  env: Env,
  credentials: ProviderCredentials,
  publicUrl: string,
  fail: (message: string) => Error,
): ProviderClients {
  const opn: ProviderClients['opn'] = {};
  const stripe: ProviderClients['stripe'] = {};
  for (const mode of MODES) {
    try {
      if (credentials.opn[mode]) opn[mode] = opnClientOptions(env, mode) ?? undefined;
      if (credentials.stripe[mode]) stripe[mode] = stripeClientOptions(env, mode) ?? undefined;
    } catch (err) {
      throw fail((err as Error).message);
    }
  }
  const email = env.STRIPE_PROMPTPAY_EMAIL || `payments@${new URL(publicUrl).hostname}`;
  if (!/^[^@\s]+@[^@\s]+$/.test(email)) throw fail('STRIPE_PROMPTPAY_EMAIL must be an email address');
  return new ProviderClients(opn, stripe, email);
}
