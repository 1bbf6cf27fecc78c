import { Module } from '@nestjs/common';
import { DatabaseModule } from '../../common/database/database.module.js';
import { CheckoutModule } from '../checkout/index.js';
import { LedgerModule } from '../ledger/index.js';
import { Refund } from './entities/refund.entity.js';
import { RefundJournals } from './refund.journals.js';
import { RefundReconciliationJob } from './refund-reconciliation.job.js';
import { RefundsController, RefundTestHelpersController } from './refunds.controller.js';
import { RefundsRepository } from './refunds.repository.js';
import { RefundsService } from './refunds.service.js';

@Module({
  imports: [...DatabaseModule.forModeEntities([Refund]), LedgerModule, CheckoutModule],
  controllers: [RefundsController, RefundTestHelpersController],
  providers: [RefundsRepository, RefundsService, RefundJournals, RefundReconciliationJob],
  exports: [RefundsService],
})
export class RefundsModule {}
