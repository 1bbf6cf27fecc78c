import { Injectable, Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { Mode } from '../common/context/principal.js';
import { PerMode } from '../common/providers/provider-registry.js';
import type { AllConfig } from '../config/app.config.js';
import type { CollectionProvider } from './ports/collection.port.js';
import type { ConnectProvider } from './ports/connect.port.js';
import type { DisputeProvider } from './ports/dispute.port.js';
import { secretKeyVariable, type PluggedProvider } from './ports/provider-plug.port.js';
import type { SettlementProvider } from './ports/settlement.port.js';
import type { TransferProvider } from './ports/transfer.port.js';
import type { ProviderWebhooks } from './ports/webhook.port.js';
import { PROVIDER_PLUGS } from './provider-plugs.js';

/**
 * The real providers' adapters by name, built once per process from the plugs
 * (src/providers/plugs.ts) and the boot configuration: one client per mode that has keys. The
 * collection and transfer registries take them as `PerMode` entries, the connect registry asks
 * for a name's connect adapter, and the provider-events module verifies webhooks with them.
 */
@Injectable()
export class ProviderAdapters {
  readonly collection: Array<PerMode<CollectionProvider>> = [];
  readonly transfer: Array<PerMode<TransferProvider>> = [];
  private readonly byName = new Map<string, PluggedProvider>();

  constructor(config: ConfigService<AllConfig, true>) {
    const clients = config.get('app.providerClients', { infer: true });
    const publicUrl = config.get('app.publicUrl', { infer: true });
    for (const plug of PROVIDER_PLUGS) {
      const plugged = plug.plug(clients[plug.name] ?? {}, {
        returnUri: (chargeId) => `${publicUrl}/provider_returns/${plug.name}/${encodeURIComponent(chargeId)}`,
      });
      const keys = secretKeyVariable(plug.keys, '<MODE>');
      const { collection, transfer } = plugged;
      if (collection) this.collection.push(new PerMode(plug.name, collection.test, collection.live, keys));
      if (transfer) this.transfer.push(new PerMode(plug.name, transfer.test, transfer.live, keys));
      this.byName.set(plug.name, plugged);
    }
  }

  /** The names of the real providers (not the sandboxes): their outcomes may arrive late, by webhook. */
  names(): string[] {
    return [...this.byName.keys()];
  }

  /** The connect adapter of a provider for a mode that has its keys; none for a provider without Connect. */
  connectFor(name: string, mode: Mode): ConnectProvider | undefined {
    return this.byName.get(name)?.connect?.[mode];
  }

  /** The dispute adapter of a provider for a mode that has its keys; none for the sandboxes. */
  disputesFor(name: string, mode: Mode): DisputeProvider | undefined {
    return this.byName.get(name)?.disputes?.[mode];
  }

  /** Every provider's dispute adapter for `mode` (the reconciliation job lists their recent disputes). */
  disputeProviders(mode: Mode): DisputeProvider[] {
    return [...this.byName.values()].flatMap((p) => (p.disputes?.[mode] ? [p.disputes[mode]] : []));
  }

  /** The settlement adapter of a provider for a mode that has its keys; none for the sandboxes. */
  settlementsFor(name: string, mode: Mode): SettlementProvider | undefined {
    return this.byName.get(name)?.settlements?.[mode];
  }

  /** The names of the providers with a settlement adapter for `mode` (the reconciliation job's schedule). */
  settlementProviders(mode: Mode): string[] {
    return [...this.byName.entries()].flatMap(([name, p]) => (p.settlements?.[mode] ? [name] : []));
  }

  /** A provider's inbound webhook port; none for a name that is not a plugged provider. */
  webhooksFor(name: string): ProviderWebhooks | undefined {
    return this.byName.get(name)?.webhooks;
  }
}

/** Provides the real providers' adapters to the modules that register or verify them. */
@Module({ providers: [ProviderAdapters], exports: [ProviderAdapters] })
export class ProviderAdaptersModule {}
