import { Module, type OnModuleInit } from '@nestjs/common';
import { ProviderAdaptersModule } from '../../providers/provider-adapters.js';
import { DatabaseModule } from '../../common/database/database.module.js';
import { AccountsModule } from '../accounts/index.js';
import { BalanceTransfers, LedgerModule } from '../ledger/index.js';
import { PayoutSchedule } from './entities/payout-schedule.entity.js';
import { Payout } from './entities/payout.entity.js';
import { PayoutJournals } from './payouts/payout.journals.js';
import { PayoutLifecycleRepository } from './payouts/payout-lifecycle.repository.js';
import { PayoutLifecycleService } from './payouts/payout-lifecycle.service.js';
import { PayoutSchedulesJob } from './payouts/payout-schedules.job.js';
import { PayoutSchedulesService } from './payouts/payout-schedules.service.js';
import {
  PayoutSchedulesController,
  PayoutsController,
  PayoutTestHelpersController,
} from './payouts/payouts.controller.js';
import { PayoutsService } from './payouts/payouts.service.js';
import { BankAccountIntentsController } from './bank-accounts/bank-account-intents.controller.js';
import { BankAccountIntentsService } from './bank-accounts/bank-account-intents.service.js';
import { BankAccountsController } from './bank-accounts/bank-accounts.controller.js';
import { BankAccountsRepository } from './bank-accounts/bank-accounts.repository.js';
import { BankAccountsService } from './bank-accounts/bank-accounts.service.js';
import { BankAccountIntent } from './entities/bank-account-intent.entity.js';
import { BankAccount } from './entities/bank-account.entity.js';
import { BankAccountPageController } from './hosted/bank-account-page.controller.js';
import { SandboxTransferRepository } from './providers/sandbox-transfer.repository.js';
import { SandboxTransferProvider } from './providers/sandbox-transfer.provider.js';
import { TransferProviders } from './providers/transfer-providers.js';

@Module({
  imports: [
    ...DatabaseModule.forModeEntities([BankAccount, BankAccountIntent, Payout, PayoutSchedule]),
    AccountsModule,
    LedgerModule,
    ProviderAdaptersModule,
  ],
  controllers: [
    BankAccountsController,
    BankAccountIntentsController,
    BankAccountPageController,
    PayoutsController,
    PayoutSchedulesController,
    PayoutTestHelpersController,
  ],
  providers: [
    BankAccountsRepository,
    BankAccountsService,
    BankAccountIntentsService,
    TransferProviders,
    SandboxTransferProvider,
    SandboxTransferRepository,
    PayoutLifecycleRepository,
    PayoutJournals,
    PayoutLifecycleService,
    PayoutsService,
    PayoutSchedulesService,
    PayoutSchedulesJob,
  ],
  exports: [BankAccountsService, SandboxTransferProvider, TransferProviders, PayoutsService, PayoutSchedulesJob],
})
export class PayoutsModule implements OnModuleInit {
  constructor(
    private readonly payouts: PayoutsService,
    private readonly transfers: BalanceTransfers,
  ) {}

  /** A balance transaction embeds its payout as `transfer`: the ledger asks this module for it. */
  onModuleInit(): void {
    this.transfers.supply((applicationId, ids) => this.payouts.responsesById(applicationId, ids));
  }
}
