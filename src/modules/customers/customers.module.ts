import { Module, type OnModuleInit } from '@nestjs/common';
import { DatabaseModule } from '../../common/database/database.module.js';
import { BalanceCustomers, LedgerModule } from '../ledger/index.js';
import { CustomerHooks } from './customer-hooks.js';
import { CustomerTestClocks } from './customer-test-clocks.js';
import { CustomersController } from './customers.controller.js';
import { CustomersRepository } from './customers.repository.js';
import { toCustomerResponse } from './customers.responses.js';
import { CustomersService } from './customers.service.js';
import { Customer } from './entities/customer.entity.js';

@Module({
  imports: [...DatabaseModule.forModeEntities([Customer]), LedgerModule],
  controllers: [CustomersController],
  providers: [CustomersRepository, CustomersService, CustomerHooks, CustomerTestClocks],
  exports: [CustomersService, CustomerHooks, CustomerTestClocks],
})
export class CustomersModule implements OnModuleInit {
  constructor(
    private readonly customers: CustomersService,
    private readonly balanceCustomers: BalanceCustomers,
  ) {}

  /** A balance embeds its customer's record: the ledger asks this module for it. */
  onModuleInit(): void {
    this.balanceCustomers.supply(async (applicationId, ids, manager) => {
      const found = await this.customers.byIds(applicationId, ids, manager);
      return new Map([...found].map(([id, c]) => [id, toCustomerResponse(c)]));
    });
  }
}
