import { Module, type OnModuleInit } from '@nestjs/common';
import { DatabaseModule } from '../../../common/database/database.module.js';
import { CustomersModule } from '../../customers/index.js';
import { LedgerModule } from '../../ledger/index.js';
import { CreditGate, MeterModule } from '../../meter/index.js';
import { BillingModule } from '../billing.module.js';
import { TestClocksModule } from '../test-clocks/test-clocks.module.js';
import { CreditBalanceService } from './credit-balance.service.js';
import { CreditGrantsController, CustomerCreditGrantsController } from './credit-grants.controller.js';
import { CreditGrantsJob } from './credit-grants.job.js';
import { CreditGrantsRepository } from './credit-grants.repository.js';
import { CreditGrantsService } from './credit-grants.service.js';
import { CreditUsageRepository } from './credit-usage.repository.js';
import { CreditGrant } from './entities/credit-grant.entity.js';

/** Prepaid credit: grants, the invoice seam (CreditBalanceService) and ingestion's credit gate. */
@Module({
  imports: [
    ...DatabaseModule.forModeEntities([CreditGrant]),
    CustomersModule,
    LedgerModule,
    MeterModule,
    BillingModule,
    TestClocksModule,
  ],
  controllers: [CustomerCreditGrantsController, CreditGrantsController],
  providers: [
    CreditGrantsRepository,
    CreditUsageRepository,
    CreditGrantsService,
    CreditBalanceService,
    CreditGrantsJob,
  ],
  exports: [CreditGrantsService, CreditBalanceService, CreditGrantsJob],
})
export class CreditModule implements OnModuleInit {
  constructor(
    private readonly gate: CreditGate,
    private readonly balance: CreditBalanceService,
  ) {}

  /** Metering imports no billing code: ingestion reaches the credit through the gate it supplies here. */
  onModuleInit(): void {
    this.gate.supply((events, manager) => this.balance.reserve(events, manager));
  }
}
