export { AccountsModule } from './accounts.module.js';
export { AccountsService, toAccountResponse, type Account } from './accounts.service.js';
export type { AccountType, KybStatus } from './entities/account.entity.js';
