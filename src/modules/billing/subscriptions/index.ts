export { TestClocksModule } from '../test-clocks/test-clocks.module.js';
export { TestClocksService } from '../test-clocks/test-clocks.service.js';
export { BillingClock } from '../test-clocks/billing-clock.js';
export { TestClockDto } from '../test-clocks/dto/test-clock.dto.js';
export { SubscriptionsModule } from './subscriptions.module.js';
export { SubscriptionsService } from './subscriptions.service.js';
export { SubscriptionsJob } from './subscriptions.job.js';
export {
  SubscriptionHooks,
  type InvoiceNow,
  type PeriodRolled,
  type PeriodsRolled,
  type SubscriptionCreated,
} from './subscription-hooks.js';
export { SubscriptionPaymentsService } from './subscription-payments.service.js';
export { subscriptionInvoiceLines } from './subscription-invoice-lines.js';
export type { Subscription } from './entities/subscription.entity.js';
export { SubscriptionDto } from './dto/subscription.dto.js';
export {
  SubscriptionCheckoutsService,
  type OpenedSubscription,
  type FirstInvoiceLine,
} from './subscription-checkouts.service.js';
export { CreateSubscriptionDto } from './dto/subscription.dto.js';
