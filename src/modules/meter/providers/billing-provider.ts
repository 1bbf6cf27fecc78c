import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ProviderRegistry } from '../../../common/providers/provider-registry.js';
import type { AllConfig } from '../../../config/app.config.js';
import { SandboxBillingProvider } from './sandbox-billing.provider.js';
import type { BillingProvider } from './billing.types.js';
import { BillingProviderError } from './billing.types.js';

export type { BillingProvider, ForwardedMeterEvent, MeterEventOutcome } from './billing.types.js';
export { BillingProviderError } from './billing.types.js';

/** Which billing provider serves an application country (BILLING_PROVIDERS); unknown names fail at boot. */
@Injectable()
export class BillingProviders extends ProviderRegistry<BillingProvider> {
  constructor(config: ConfigService<AllConfig, true>, sandbox: SandboxBillingProvider) {
    super('BILLING_PROVIDERS', [sandbox], config.get('app.billingProviders', { infer: true }));
  }

  override forCountry(country: string | undefined): BillingProvider {
    return super.forCountry(country)!;
  }

  override named(name: string): BillingProvider {
    const provider = super.named(name);
    if (!provider) throw new BillingProviderError(`no billing provider named "${name}"`);
    return provider;
  }
}
