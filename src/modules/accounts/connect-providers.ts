import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { AllConfig } from '../../config/app.config.js';
import { ProviderAdapters } from '../../providers/provider-adapters.js';
import type { ConnectProvider } from '../../providers/ports/connect.port.js';

/**
 * Which connect provider (if any) opens accounts for connected accounts of a country in a mode:
 * the one named by the country's **collection** provider (COLLECTION_PROVIDERS /
 * COLLECTION_PROVIDERS_LIVE), because destination charges are made by that provider. Only
 * `stripe` has one (Stripe Connect); Opn and the sandbox keep connected accounts in the service's
 * own books only.
 */
@Injectable()
export class ConnectProviders {
  private readonly maps: { test: Record<string, string>; live: Record<string, string> };

  constructor(
    config: ConfigService<AllConfig, true>,
    private readonly adapters: ProviderAdapters,
  ) {
    this.maps = {
      test: config.get('app.collectionProviders', { infer: true }),
      live: config.get('app.collectionProvidersLive', { infer: true }),
    };
  }

  forCountry(country: string | null, livemode: boolean): ConnectProvider | null {
    if (!country) return null;
    const map = livemode ? this.maps.live : this.maps.test;
    const name = map[country] ?? map['*'];
    return name ? (this.adapters.connectFor(name, livemode ? 'live' : 'test') ?? null) : null;
  }
}
