import { Injectable, Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type Stripe from 'stripe';
import { PerMode } from '../common/providers/provider-registry.js';
import type { AllConfig } from '../config/app.config.js';
import type { ProviderMode } from '../config/provider-credentials.js';
import type { ConnectProvider } from './ports/connect.port.js';
import type { CollectionProvider } from './ports/collection.port.js';
import type { TransferProvider } from './ports/transfer.port.js';
import { OpnClient } from './opn/opn-client.js';
import { OpnCollectionProvider } from './opn/opn-collection.provider.js';
import { OpnTransferProvider } from './opn/opn-transfer.provider.js';
import { OpnWebhooks } from './opn/opn-webhooks.js';
import { createStripeClient } from './stripe/stripe-config.js';
import { StripeCollectionProvider } from './stripe/stripe-collection.provider.js';
import { StripeConnectProvider } from './stripe/stripe-connect.provider.js';
import { StripeTransferProvider } from './stripe/stripe-transfer.provider.js';
import { StripeWebhooks } from './stripe/stripe-webhooks.js';

const MODES: ProviderMode[] = ['test', 'live'];

/**
 * Opn's and Stripe's adapters, one per mode that has keys (src/config/provider-clients.ts), each
 * with its own client: the collection and transfer registries take them as `PerMode` entries
 * named `opn` and `stripe`, and the provider-events module verifies webhooks with them. Built once
 * per process from the boot configuration.
 */
@Injectable()
export class ProviderAdapters {
  readonly collection: Array<PerMode<CollectionProvider>>;
  readonly transfer: Array<PerMode<TransferProvider>>;
  private readonly opnWebhooks: Partial<Record<ProviderMode, OpnWebhooks>> = {};
  private readonly stripeWebhooks: Partial<Record<ProviderMode, StripeWebhooks>> = {};
  private readonly connect: Partial<Record<ProviderMode, ConnectProvider>> = {};

  constructor(config: ConfigService<AllConfig, true>) {
    const clients = config.get('app.providerClients', { infer: true });
    const publicUrl = config.get('app.publicUrl', { infer: true });
    const returnUri = (provider: string) => (chargeId: string) =>
      `${publicUrl}/provider_returns/${provider}/${encodeURIComponent(chargeId)}`;
    const opn: Partial<Record<ProviderMode, { collection: OpnCollectionProvider; transfer: OpnTransferProvider }>> = {};
    const stripe: Partial<
      Record<ProviderMode, { collection: StripeCollectionProvider; transfer: StripeTransferProvider }>
    > = {};
    for (const mode of MODES) {
      const opnOptions = clients.opn[mode];
      if (opnOptions) {
        const client = new OpnClient(opnOptions);
        opn[mode] = {
          collection: new OpnCollectionProvider(client, { returnUri: returnUri('opn') }),
          transfer: new OpnTransferProvider(client),
        };
        this.opnWebhooks[mode] = new OpnWebhooks(client);
      }
      const stripeOptions = clients.stripe[mode];
      if (stripeOptions) {
        const sdk: Stripe = createStripeClient(stripeOptions);
        stripe[mode] = {
          collection: new StripeCollectionProvider(sdk, {
            returnUri: returnUri('stripe'),
            promptPayEmail: () => clients.stripePromptPayEmail,
          }),
          // The application's own account has no Connect account: its recipients are refused
          // (`unsupported_destination`); a connected account's recipient names its acct_… (docs/PROVIDERS.md).
          transfer: new StripeTransferProvider(sdk, { connectedAccount: () => null }),
        };
        this.connect[mode] = new StripeConnectProvider(sdk);
        if (stripeOptions.webhookSecret)
          this.stripeWebhooks[mode] = new StripeWebhooks(sdk, stripeOptions.webhookSecret);
      }
    }
    this.collection = [
      new PerMode<CollectionProvider>('opn', opn.test?.collection, opn.live?.collection, 'OPN_SECRET_KEY_<MODE>'),
      new PerMode<CollectionProvider>(
        'stripe',
        stripe.test?.collection,
        stripe.live?.collection,
        'STRIPE_SECRET_KEY_<MODE>',
      ),
    ];
    this.transfer = [
      new PerMode<TransferProvider>('opn', opn.test?.transfer, opn.live?.transfer, 'OPN_SECRET_KEY_<MODE>'),
      new PerMode<TransferProvider>('stripe', stripe.test?.transfer, stripe.live?.transfer, 'STRIPE_SECRET_KEY_<MODE>'),
    ];
  }

  /** Opn's webhook verifier for a mode (re-fetches events with that mode's key), if Opn has keys for it. */
  opnWebhooksFor(mode: ProviderMode): OpnWebhooks | undefined {
    return this.opnWebhooks[mode];
  }

  /** The connect adapter named `name` (only `stripe` has one) for a mode that has its keys. */
  connectFor(name: string, mode: ProviderMode): ConnectProvider | undefined {
    return name === 'stripe' ? this.connect[mode] : undefined;
  }

  /** Stripe's webhook verifier for a mode, if it has keys and STRIPE_WEBHOOK_SECRET_<MODE>. */
  stripeWebhooksFor(mode: ProviderMode): StripeWebhooks | undefined {
    return this.stripeWebhooks[mode];
  }
}

/** Provides the real providers' adapters to the modules that register or verify them. */
@Module({ providers: [ProviderAdapters], exports: [ProviderAdapters] })
export class ProviderAdaptersModule {}
