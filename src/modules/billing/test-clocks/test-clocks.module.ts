import { Module, type OnModuleInit } from '@nestjs/common';
import { DatabaseModule } from '../../../common/database/database.module.js';
import { CustomerTestClocks, CustomersModule } from '../../customers/index.js';
import { BillingClock } from './billing-clock.js';
import { TestClock } from './entities/test-clock.entity.js';
import { TestClockHooks } from './test-clock-hooks.js';
import { TestClocksController } from './test-clocks.controller.js';
import { TestClocksRepository } from './test-clocks.repository.js';
import { TestClocksService } from './test-clocks.service.js';

@Module({
  imports: [...DatabaseModule.forModeEntities([TestClock]), CustomersModule],
  controllers: [TestClocksController],
  providers: [TestClocksRepository, TestClocksService, TestClockHooks, BillingClock],
  exports: [TestClocksService, TestClockHooks, BillingClock],
})
export class TestClocksModule implements OnModuleInit {
  constructor(
    private readonly clocks: TestClocksService,
    private readonly customerClocks: CustomerTestClocks,
  ) {}

  /** A customer created with `test_clock` is checked here (customers import no billing code). */
  onModuleInit(): void {
    this.customerClocks.supply((principal, id, manager) => this.clocks.assertUsable(principal, id, manager));
  }
}
