import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ProviderRegistry } from '../../../common/providers/provider-registry.js';
import type { AllConfig } from '../../../config/app.config.js';
import { SandboxBillingProvider } from './sandbox-billing.provider.js';
import { BillingProviderError, type BillingProvider } from '../../../providers/ports/billing.port.js';

/**
 * Which billing provider serves an application country in a mode (BILLING_PROVIDERS for test mode,
 * BILLING_PROVIDERS_LIVE for live mode); unknown names, and a sandbox in the live map, fail at boot.
 */
@Injectable()
export class BillingProviders extends ProviderRegistry<BillingProvider> {
  constructor(config: ConfigService<AllConfig, true>, sandbox: SandboxBillingProvider) {
    super('billing', 'BILLING_PROVIDERS', [sandbox], {
      test: config.get('app.billingProviders', { infer: true }),
      live: config.get('app.billingProvidersLive', { infer: true }),
    });
  }

  /** The provider serving the country in the mode; E5003 in live mode where none is configured. */
  override forCountry(country: string | undefined, livemode: boolean): BillingProvider {
    return super.forCountry(country, livemode)!;
  }

  override named(name: string): BillingProvider {
    const provider = super.named(name);
    if (!provider) throw new BillingProviderError(`no billing provider named "${name}"`);
    return provider;
  }
}
