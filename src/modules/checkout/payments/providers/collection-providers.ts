import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ProviderRegistry } from '../../../../common/providers/provider-registry.js';
import { RequestContext } from '../../../../common/context/request-context.js';
import type { AllConfig } from '../../../../config/app.config.js';
import { ProviderAdapters } from '../../../../providers/provider-adapters.js';
import { CollectionProviderError, type CollectionProvider } from '../../../../providers/ports/collection.port.js';
import { SandboxCollectionProvider } from './sandbox-collection.provider.js';

/**
 * Which collection provider serves an application country in a mode (COLLECTION_PROVIDERS for
 * test mode, COLLECTION_PROVIDERS_LIVE for live mode); unknown names, and a sandbox in the live
 * map, fail at boot. A live country without a provider is E5003. `opn` and `stripe` have one
 * adapter per mode (each with that mode's keys); `named` picks the one of the request's mode.
 */
@Injectable()
export class CollectionProviders extends ProviderRegistry<CollectionProvider> {
  constructor(
    config: ConfigService<AllConfig, true>,
    sandbox: SandboxCollectionProvider,
    adapters: ProviderAdapters,
    context: RequestContext,
  ) {
    super(
      'collection',
      'COLLECTION_PROVIDERS',
      [sandbox, ...adapters.collection],
      {
        test: config.get('app.collectionProviders', { infer: true }),
        live: config.get('app.collectionProvidersLive', { infer: true }),
      },
      { livemode: () => context.optionalLivemode },
    );
  }

  /** The provider serving the country in the mode; E5003 in live mode where none is configured. */
  override forCountry(country: string, livemode: boolean): CollectionProvider {
    return super.forCountry(country, livemode)!;
  }

  override named(name: string, livemode?: boolean): CollectionProvider {
    const provider = super.named(name, livemode);
    if (!provider) throw new CollectionProviderError(`no collection provider named "${name}"`);
    return provider;
  }
}
