import { Module, type OnModuleInit } from '@nestjs/common';
import { DatabaseModule } from '../../../common/database/database.module.js';
import { CustomersModule } from '../../customers/index.js';
import { BillingModule } from '../billing.module.js';
import { TestClockHooks } from '../test-clocks/test-clock-hooks.js';
import { TestClocksModule } from '../test-clocks/test-clocks.module.js';
import { PendingItem } from './entities/pending-item.entity.js';
import { SubscriptionItem } from './entities/subscription-item.entity.js';
import { Subscription } from './entities/subscription.entity.js';
import { SubscriptionCheckoutsService } from './subscription-checkouts.service.js';
import { SubscriptionChangesService } from './subscription-changes.service.js';
import { SubscriptionHooks } from './subscription-hooks.js';
import { SubscriptionPaymentsService } from './subscription-payments.service.js';
import { SubscriptionPrices } from './subscription-prices.js';
import { SubscriptionStepsService } from './subscription-steps.service.js';
import { SubscriptionsController } from './subscriptions.controller.js';
import { SubscriptionsJob } from './subscriptions.job.js';
import { SubscriptionsRepository } from './subscriptions.repository.js';
import { SubscriptionsService } from './subscriptions.service.js';

@Module({
  imports: [
    ...DatabaseModule.forModeEntities([Subscription, SubscriptionItem, PendingItem]),
    CustomersModule,
    TestClocksModule,
    BillingModule,
  ],
  controllers: [SubscriptionsController],
  providers: [
    SubscriptionsRepository,
    SubscriptionsService,
    SubscriptionChangesService,
    SubscriptionStepsService,
    SubscriptionPrices,
    SubscriptionHooks,
    SubscriptionsJob,
    SubscriptionCheckoutsService,
    SubscriptionPaymentsService,
  ],
  exports: [
    SubscriptionsService,
    SubscriptionCheckoutsService,
    SubscriptionPaymentsService,
    SubscriptionHooks,
    SubscriptionsJob,
  ],
})
export class SubscriptionsModule implements OnModuleInit {
  constructor(
    private readonly clockHooks: TestClockHooks,
    private readonly steps: SubscriptionStepsService,
  ) {}

  /** Deleting a test clock cancels its subscriptions in the same transaction. */
  onModuleInit(): void {
    this.clockHooks.deleting.on((event) => this.steps.cancelOnDeletedClock(event));
  }
}
