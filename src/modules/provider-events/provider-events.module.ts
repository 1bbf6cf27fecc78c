import { Module } from '@nestjs/common';
import { ProviderAdaptersModule } from '../../providers/provider-adapters.js';
import { AccountsModule } from '../accounts/index.js';
import { CheckoutModule } from '../checkout/index.js';
import { DisputesModule } from '../disputes/index.js';
import { PayoutsModule } from '../payouts/index.js';
import { RefundsModule } from '../refunds/index.js';
import { ProviderEventsRepository } from './provider-events.repository.js';
import { ProviderEventsService } from './provider-events.service.js';
import { ProviderReconciliationJob } from './provider-reconciliation.job.js';
import { ProviderWebhooksController } from './provider-webhooks.controller.js';

/**
 * Inbound provider webhooks (Opn, Stripe) and the reconciliation job for lost ones
 * (docs/PROVIDERS.md). Owns provider_events; changes charges, refunds, payouts and disputes only through
 * their modules' services.
 */
@Module({
  imports: [ProviderAdaptersModule, AccountsModule, CheckoutModule, RefundsModule, PayoutsModule, DisputesModule],
  controllers: [ProviderWebhooksController],
  providers: [ProviderEventsRepository, ProviderEventsService, ProviderReconciliationJob],
  exports: [ProviderEventsService, ProviderReconciliationJob],
})
export class ProviderEventsModule {}
