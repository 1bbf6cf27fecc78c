import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { AllConfig } from '../../../config/app.config.js';
import { SandboxBillingProvider } from './sandbox-billing.provider.js';
import type { BillingProvider } from './billing.types.js';
import { BillingProviderError } from './billing.types.js';

export type { BillingProvider, ForwardedMeterEvent } from './billing.types.js';
export { BillingProviderError } from './billing.types.js';

/** Which provider serves an application country (BILLING_PROVIDERS); unknown names fail at boot. */
@Injectable()
export class BillingProviders {
  private readonly byName: Map<string, BillingProvider>;
  private readonly byCountry: Record<string, string>;

  constructor(config: ConfigService<AllConfig, true>, sandbox: SandboxBillingProvider) {
    this.byName = new Map([[sandbox.name, sandbox]]);
    this.byCountry = config.get('app.billingProviders', { infer: true });
    for (const name of Object.values(this.byCountry)) {
      if (!this.byName.has(name)) throw new Error(`BILLING_PROVIDERS names an unknown billing provider "${name}"`);
    }
  }

  forCountry(country: string | undefined): BillingProvider {
    const name = (country && this.byCountry[country]) || this.byCountry['*'] || 'sandbox';
    return this.byName.get(name)!;
  }

  named(name: string): BillingProvider {
    const provider = this.byName.get(name);
    if (!provider) throw new BillingProviderError(`no billing provider named "${name}"`);
    return provider;
  }
}
