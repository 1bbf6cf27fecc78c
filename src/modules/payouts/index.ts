export { PayoutsModule } from './payouts.module.js';
export { BankAccountsService, toBankAccountResponse, type BankAccountResponse } from './bank-accounts.service.js';
export { SandboxTransferProvider } from './providers/sandbox-transfer.provider.js';
export { TransferProviders } from './providers/transfer-providers.js';
export { PayoutsService } from './payouts/payouts.service.js';
export { PayoutSchedulesService } from './payouts/payout-schedules.service.js';
export { toPayoutResponse, type PayoutResponse } from './payouts/payouts.responses.js';
export { PayoutDto } from './dto/payout.dto.js';
