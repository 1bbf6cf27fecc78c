export { LedgerModule } from './ledger.module.js';
export {
  PostingService,
  type Posting,
  type PostingEntry,
  type PostedJournal,
  type PendingLeg,
  type EntryState,
} from './posting.service.js';
export { BalancesService, type BalanceOwner } from './balances.service.js';
export { BalanceCustomers, type CustomerRecordsById } from './balance-customers.js';
export { BalanceTransfers, type TransferRecordsById } from './balance-transfers.js';
export { HoldReleaseJob } from './hold-release.job.js';
export { HotLegsRepository } from './hot-legs.repository.js';
export { LedgerErrors } from './ledger.errors.js';
export { scalingFactorOf } from './money.js';
export {
  toBalanceResponse,
  type BalanceResponse,
  type BalanceTransactionResponse,
  type EmbeddedCustomer,
} from './ledger.responses.js';
export { BalanceDto } from './dto/ledger.dto.js';
export type { Balance } from './entities/balance.entity.js';
export type { BalanceTransaction, FeeDetail } from './entities/balance-transaction.entity.js';
export { connectedAccountName } from './account-names.js';
export { StatementKeys } from './statements/statement-keys.js';
export { StatementsService, type StatementResponse } from './statements/statements.service.js';
export {
  verifyStatement,
  entriesOfExport,
  type StatementPayload,
  type StatementVerification,
} from './statements/statement-verify.js';
export { canonicalEntryLine, entryHash, replayChain, type ChainEntry } from './statements/entry-chain.js';
export {
  LedgerReports,
  type LedgerReportKind,
  type ReportRow,
  type ReportWindow,
} from './reports/ledger-reports.service.js';
export { settlementTotalsSql } from './reports/settlement-totals.sql.js';
