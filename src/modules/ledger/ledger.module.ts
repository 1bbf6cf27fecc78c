import { Module } from '@nestjs/common';
import { DatabaseModule } from '../../common/database/database.module.js';
import { BalanceTransactionsService } from './balance-transactions.service.js';
import { BalancesService } from './balances.service.js';
import { BalanceCustomers } from './balance-customers.js';
import { BalanceTransfers } from './balance-transfers.js';
import { Balance } from './entities/balance.entity.js';
import { BalanceTransaction } from './entities/balance-transaction.entity.js';
import { Journal } from './entities/journal.entity.js';
import { HoldsRepository } from './holds.repository.js';
import { HoldReleaseJob } from './hold-release.job.js';
import { HotLegsRepository } from './hot-legs.repository.js';
import { BalancesController, BalanceTransactionsController } from './ledger.controller.js';
import { LedgerRepository } from './ledger.repository.js';
import { PendingLegsJob } from './pending-legs.job.js';
import { PostingService } from './posting.service.js';
import { PostingsRepository } from './postings.repository.js';
import { LedgerReportsRepository } from './reports/ledger-reports.repository.js';
import { LedgerReports } from './reports/ledger-reports.service.js';
import { StatementKeys } from './statements/statement-keys.js';
import { StatementKeysRepository } from './statements/statement-keys.repository.js';
import { BalanceStatementsController, StatementKeysController } from './statements/statements.controller.js';
import { StatementsRepository } from './statements/statements.repository.js';
import { StatementsService } from './statements/statements.service.js';

@Module({
  imports: [...DatabaseModule.forModeEntities([Balance, BalanceTransaction, Journal])],
  controllers: [
    BalanceTransactionsController,
    BalancesController,
    BalanceStatementsController,
    StatementKeysController,
  ],
  providers: [
    LedgerRepository,
    HoldsRepository,
    PostingsRepository,
    PostingService,
    BalancesService,
    BalanceTransactionsService,
    BalanceCustomers,
    BalanceTransfers,
    HoldReleaseJob,
    HotLegsRepository,
    PendingLegsJob,
    LedgerReportsRepository,
    LedgerReports,
    StatementKeysRepository,
    StatementKeys,
    StatementsRepository,
    StatementsService,
  ],
  exports: [
    PostingService,
    BalancesService,
    BalanceCustomers,
    BalanceTransfers,
    HoldReleaseJob,
    HotLegsRepository,
    LedgerReports,
    StatementKeys,
    StatementsService,
  ],
})
export class LedgerModule {}
