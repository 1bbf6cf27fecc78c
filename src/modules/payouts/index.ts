export { PayoutsModule } from './payouts.module.js';
export { BankAccountsService } from './bank-accounts/bank-accounts.service.js';
export { toBankAccountResponse, type BankAccountResponse } from './bank-accounts/bank-accounts.responses.js';
export { SandboxTransferProvider } from './providers/sandbox-transfer.provider.js';
export { TransferProviders } from './providers/transfer-providers.js';
export { PayoutsService } from './payouts/payouts.service.js';
export { PayoutSchedulesJob } from './payouts/payout-schedules.job.js';
export { toPayoutResponse, type PayoutResponse } from './payouts/payouts.responses.js';
export { PayoutDto } from './dto/payout.dto.js';
