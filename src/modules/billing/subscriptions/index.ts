export { TestClocksModule } from '../test-clocks/test-clocks.module.js';
export { TestClocksService } from '../test-clocks/test-clocks.service.js';
export { BillingClock } from '../test-clocks/billing-clock.js';
export { TestClockDto } from '../test-clocks/dto/test-clock.dto.js';
export { SubscriptionDto } from './dto/subscription.dto.js';
