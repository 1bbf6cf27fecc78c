import { Module, type OnModuleInit } from '@nestjs/common';
import { ProviderAdaptersModule } from '../../providers/provider-adapters.js';
import { RequestContext } from '../../common/context/request-context.js';
import { DatabaseModule } from '../../common/database/database.module.js';
import { forEachMode } from '../../common/tenancy/modes.js';
import { ApplicationHooks } from '../applications/index.js';
import { AccountsController, AccountTestHelpersController } from './accounts.controller.js';
import { AccountsRepository } from './accounts.repository.js';
import { AccountsService } from './accounts.service.js';
import { ConnectProviders } from './connect-providers.js';
import { AccountRecord } from './entities/account.entity.js';

@Module({
  imports: [...DatabaseModule.forModeEntities([AccountRecord]), ProviderAdaptersModule],
  controllers: [AccountsController, AccountTestHelpersController],
  providers: [AccountsRepository, AccountsService, ConnectProviders],
  exports: [AccountsService],
})
export class AccountsModule implements OnModuleInit {
  constructor(
    private readonly hooks: ApplicationHooks,
    private readonly accounts: AccountsService,
    private readonly context: RequestContext,
  ) {}

  /** Every new application gets its own account in both modes (each bound for ModeDb in turn). */
  onModuleInit(): void {
    this.hooks.created.on(async (application) => {
      await forEachMode((mode) => this.context.runInMode(mode, () => this.accounts.createOwnAccount(application)));
    });
  }
}
