import { Logger, Module, type OnModuleInit } from '@nestjs/common';
import { DatabaseModule } from '../../common/database/database.module.js';
import { CustomerHooks, CustomersModule, CustomersService } from '../customers/index.js';
import { BillingProviders } from './providers/billing-provider.js';
import { BillingProviderError } from '../../providers/ports/billing.port.js';
import { SandboxBillingProvider } from './providers/sandbox-billing.provider.js';
import { MeterEventForwardingJob } from './meter-event-forwarding.job.js';
import { MeterEventsService } from './meter-events.service.js';
import { CreditGate } from './credit-gate.js';
import { EnforcedEvents } from './enforced-events.js';
import { MeterOutboxMetrics } from './meter-outbox.metrics.js';
import { MeterSummariesService } from './meter-summaries.service.js';
import { MeterUsageRepository } from './meter-usage.repository.js';
import { MeterUsageService } from './meter-usage.service.js';
import { MeterUsageReportsRepository } from './reports/meter-usage-reports.repository.js';
import { MeterUsageReports } from './reports/meter-usage-reports.service.js';
import { Meter } from './entities/meter.entity.js';
import { MeterEventsController, MetersController } from './meter.controller.js';
import { SandboxBillingRepository } from './providers/sandbox-billing.repository.js';
import { MeterEventsRepository } from './meter-events.repository.js';
import { MetersRepository } from './meters.repository.js';
import { MetersService } from './meters.service.js';

@Module({
  imports: [...DatabaseModule.forModeEntities([Meter]), CustomersModule],
  controllers: [MetersController, MeterEventsController],
  providers: [
    MetersRepository,
    MeterEventsRepository,
    MetersService,
    MeterEventsService,
    MeterSummariesService,
    MeterUsageRepository,
    MeterUsageService,
    MeterUsageReports,
    MeterUsageReportsRepository,
    MeterEventForwardingJob,
    MeterOutboxMetrics,
    BillingProviders,
    SandboxBillingProvider,
    SandboxBillingRepository,
    CreditGate,
    EnforcedEvents,
  ],
  exports: [
    MeterEventForwardingJob,
    SandboxBillingProvider,
    MetersService,
    CreditGate,
    MeterUsageService,
    MeterUsageReports,
  ],
})
export class MeterModule implements OnModuleInit {
  private readonly logger = new Logger('Metering');

  constructor(
    private readonly hooks: CustomerHooks,
    private readonly customers: CustomersService,
    private readonly providers: BillingProviders,
  ) {}

  /** Every new customer gets its reference at the billing provider serving the request's country. */
  onModuleInit(): void {
    this.hooks.created.on(async ({ customer, country }) => {
      // Live mode without a live billing provider for the country: the customer has no billing reference
      // (its meter events are refused), as a sandbox never serves live mode.
      if (customer.livemode && !this.providers.hasLive(country)) {
        this.logger.warn(
          `no billing reference for live customer ${customer.id}: no live billing provider for ${country}`,
        );
        return;
      }
      const provider = this.providers.forCountry(country, customer.livemode)!;
      try {
        const reference = await provider.createCustomer(customer.application_id, customer.id);
        await this.customers.setProviderReference(customer, provider.name, reference);
        customer.provider = provider.name;
        customer.provider_reference = reference;
      } catch (err) {
        if (!(err instanceof BillingProviderError)) throw err;
        this.logger.warn(`no billing reference for customer ${customer.id}: ${err.message}`);
      }
    });
  }
}
