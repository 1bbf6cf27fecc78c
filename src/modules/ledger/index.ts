export { LedgerModule } from './ledger.module.js';
export {
  PostingService,
  type Posting,
  type PostingEntry,
  type PostedJournal,
  type EntryState,
} from './posting.service.js';
export { BalancesService, type BalanceOwner } from './balances.service.js';
export { LedgerChargesService } from './charges.service.js';
export { HoldReleaseService } from './hold-release.service.js';
export { LedgerErrors } from './ledger.errors.js';
export { scalingFactorOf } from './money.js';
export {
  toChargeResponse,
  toPaymentMethodResponse,
  toBalanceResponse,
  type ChargeResponse,
  type ChargeEmbeds,
  type PaymentMethodResponse,
  type BalanceResponse,
  type BalanceTransactionResponse,
} from './ledger.responses.js';
export { ChargeDto, PaymentMethodDto, BalanceDto } from './dto/ledger.dto.js';
export type { Charge, NextActionItem, PromptPayDetails, InstallmentDetails } from './entities/charge.entity.js';
export type { PaymentMethod } from './entities/payment-method.entity.js';
export type { Balance } from './entities/balance.entity.js';
export type { BalanceTransaction, FeeDetail } from './entities/balance-transaction.entity.js';
