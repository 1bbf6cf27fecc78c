import { Module } from '@nestjs/common';
import { DatabaseModule } from '../../common/database/database.module.js';
import { BalanceTransactionsService } from './balance-transactions.service.js';
import { BalancesService } from './balances.service.js';
import { LedgerChargesService } from './charges.service.js';
import { Balance } from './entities/balance.entity.js';
import { BalanceTransaction } from './entities/balance-transaction.entity.js';
import { Charge } from './entities/charge.entity.js';
import { Journal } from './entities/journal.entity.js';
import { PaymentMethod } from './entities/payment-method.entity.js';
import { HoldsRepository } from './holds.repository.js';
import { HoldReleaseService } from './hold-release.service.js';
import { BalancesController, BalanceTransactionsController } from './ledger.controller.js';
import { LedgerRepository } from './ledger.repository.js';
import { PostingService } from './posting.service.js';
import { PostingsRepository } from './postings.repository.js';

@Module({
  imports: [...DatabaseModule.forModeEntities([Balance, BalanceTransaction, Journal, Charge, PaymentMethod])],
  controllers: [BalanceTransactionsController, BalancesController],
  providers: [
    LedgerRepository,
    HoldsRepository,
    PostingsRepository,
    PostingService,
    BalancesService,
    BalanceTransactionsService,
    LedgerChargesService,
    HoldReleaseService,
  ],
  exports: [PostingService, BalancesService, LedgerChargesService, HoldReleaseService],
})
export class LedgerModule {}
