import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { AllConfig } from '../../../../config/app.config.js';
import { CollectionProviderError, type CollectionProvider } from './collection-provider.js';
import { SandboxCollectionProvider } from './sandbox-collection.provider.js';

/** Which collection provider serves an application country (COLLECTION_PROVIDERS); unknown names fail at boot. */
@Injectable()
export class CollectionProviders {
  private readonly byName: Map<string, CollectionProvider>;
  private readonly byCountry: Record<string, string>;

  constructor(config: ConfigService<AllConfig, true>, sandbox: SandboxCollectionProvider) {
    this.byName = new Map([[sandbox.name, sandbox]]);
    this.byCountry = config.get('app.collectionProviders', { infer: true });
    for (const name of Object.values(this.byCountry)) {
      if (!this.byName.has(name)) {
        throw new Error(`COLLECTION_PROVIDERS names an unknown collection provider "${name}"`);
      }
    }
  }

  forCountry(country: string): CollectionProvider {
    const name = this.byCountry[country] ?? this.byCountry['*'] ?? 'sandbox';
    return this.byName.get(name)!;
  }

  named(name: string): CollectionProvider {
    const provider = this.byName.get(name);
    if (!provider) throw new CollectionProviderError(`no collection provider named "${name}"`);
    return provider;
  }
}
