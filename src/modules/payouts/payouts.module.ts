import { Module } from '@nestjs/common';
import { DatabaseModule } from '../../common/database/database.module.js';
import { AccountsModule } from '../accounts/index.js';
import { BankAccountIntentsService } from './bank-account-intents.service.js';
import { BankAccountsService } from './bank-accounts.service.js';
import { BankAccountIntent } from './entities/bank-account-intent.entity.js';
import { BankAccount } from './entities/bank-account.entity.js';
import { BankAccountPageController } from './hosted/bank-account-page.controller.js';
import { BankAccountIntentsController, BankAccountsController } from './payouts.controller.js';
import { PayoutsRepository } from './payouts.repository.js';
import { SandboxTransferRepository } from './providers/sandbox-transfer.repository.js';
import { SandboxTransferProvider } from './providers/sandbox-transfer.provider.js';
import { TransferProviders } from './providers/transfer-providers.js';

@Module({
  imports: [...DatabaseModule.forModeEntities([BankAccount, BankAccountIntent]), AccountsModule],
  controllers: [BankAccountsController, BankAccountIntentsController, BankAccountPageController],
  providers: [
    PayoutsRepository,
    BankAccountsService,
    BankAccountIntentsService,
    TransferProviders,
    SandboxTransferProvider,
    SandboxTransferRepository,
  ],
  exports: [BankAccountsService, SandboxTransferProvider, TransferProviders],
})
export class PayoutsModule {}
