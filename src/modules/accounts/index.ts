export { AccountsModule } from './accounts.module.js';
export { AccountsService } from './accounts.service.js';
export { toAccountResponse, type Account } from './accounts.responses.js';
export type { AccountType } from './entities/account.entity.js';
export { ConnectProviders } from './connect-providers.js';
