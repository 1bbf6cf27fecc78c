export { PayoutsModule } from './payouts.module.js';
export { BankAccountsService, toBankAccountResponse, type BankAccountResponse } from './bank-accounts.service.js';
export { SandboxTransferProvider } from './transfer/sandbox-transfer.provider.js';
export { TransferProviders } from './transfer/transfer-providers.js';
export type { TransferProvider, RecipientRequest, Recipient, BankAccountType } from './transfer/transfer.types.js';
