import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { AllConfig } from '../../../config/app.config.js';
import { SandboxBillingProvider } from './sandbox-billing.provider.js';

export interface ForwardedMeterEvent {
  applicationId: string;
  identifier: string;
  eventName: string;
  /** The metric value (a numeric string) under the meter's payload key, and `customer` = provider reference. */
  payload: Record<string, string>;
  occurredAt: Date;
}

/** What a billing provider does for the wallet: customer references and meter event intake. */
export interface BillingProvider {
  readonly name: string;
  createCustomer(applicationId: string, customerId: string): Promise<string>;
  /** Must be idempotent on (application, identifier): the outbox may deliver an event again after a crash. */
  sendMeterEvent(event: ForwardedMeterEvent): Promise<void>;
}

export class BillingProviderError extends Error {}

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
