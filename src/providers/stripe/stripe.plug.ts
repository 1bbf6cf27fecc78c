import { perMode, settingsPerMode, type ProviderPlug } from '../ports/provider-plug.port.js';
import { createStripeClient, stripeClientOptions, type StripeClientOptions } from './stripe-config.js';
import { StripeCollectionProvider } from './stripe-collection.provider.js';
import { StripeConnectProvider } from './stripe-connect.provider.js';
import { StripeDisputeProvider } from './stripe-disputes.js';
import { StripeSettlementProvider } from './stripe-settlements.js';
import { StripeTransferProvider } from './stripe-transfer.provider.js';
import { StripeWebhooks } from './stripe-webhooks.js';

/** One mode's Stripe settings: the SDK client's, and the payer email Stripe requires for PromptPay. */
export interface StripeSettings extends StripeClientOptions {
  /** `billing_details.email` of PromptPay payments: STRIPE_PROMPTPAY_EMAIL, default `payments@<PUBLIC_URL host>`. */
  promptPayEmail: string;
}

/**
 * Stripe: card (Payment Element) and PromptPay collection, refunds, Connect accounts for
 * connected accounts, payouts on those accounts, disputes and their evidence, signed webhooks.
 */
export const stripePlug: ProviderPlug<StripeSettings> = {
  name: 'stripe',
  keys: {
    prefix: 'STRIPE',
    secret: 'SECRET_KEY',
    public: 'PUBLISHABLE_KEY',
    formats: { test: [/^(sk|rk)_test_\w+$/, /^pk_test_\w+$/], live: [/^(sk|rk)_live_\w+$/, /^pk_live_\w+$/] },
  },
  settings(env, modes, service) {
    // Checked with or without keys, so a wrong value fails the boot before anyone relies on it.
    const promptPayEmail = env.STRIPE_PROMPTPAY_EMAIL || `payments@${new URL(service.publicUrl).hostname}`;
    if (!/^[^@\s]+@[^@\s]+$/.test(promptPayEmail)) throw new Error('STRIPE_PROMPTPAY_EMAIL must be an email address');
    return settingsPerMode(modes, (mode) => {
      const client = stripeClientOptions(env, mode);
      return client && { ...client, promptPayEmail };
    });
  },
  plug(settings, links) {
    const modes = perMode(settings, (options) => ({ options, sdk: createStripeClient(options) }));
    return {
      collection: perMode(
        modes,
        ({ sdk, options }) =>
          new StripeCollectionProvider(sdk, {
            returnUri: links.returnUri,
            promptPayEmail: () => options.promptPayEmail,
          }),
      ),
      // The application's own account has no Connect account: its recipients are refused
      // (`unsupported_destination`); a connected account's recipient names its acct_… (docs/PROVIDERS.md).
      transfer: perMode(modes, ({ sdk }) => new StripeTransferProvider(sdk, { connectedAccount: () => null })),
      connect: perMode(modes, ({ sdk }) => new StripeConnectProvider(sdk)),
      disputes: perMode(modes, ({ sdk }) => new StripeDisputeProvider(sdk)),
      settlements: perMode(modes, ({ sdk }) => new StripeSettlementProvider(sdk)),
      webhooks: new StripeWebhooks(
        perMode(modes, ({ sdk, options }) => ({ stripe: sdk, webhookSecret: options.webhookSecret })),
      ),
    };
  },
};
