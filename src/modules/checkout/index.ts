export { CheckoutModule } from './checkout.module.js';
export { CheckoutErrors } from './checkout.errors.js';
export { PaymentIntentsService } from './targets/payment-intents.service.js';
export { InvoicesService } from './targets/invoices.service.js';
export { CheckoutsService } from './checkouts/checkouts.service.js';
export { CheckoutExpiryJob, EXPIRED_PROMPTPAY } from './payments/checkout-expiry.job.js';
export { ChargesService, type ChargeDisputeFacts } from './payments/charges.service.js';
export { ChargeHooks } from './payments/charge-hooks.js';
export { toChargeResponse, toPaymentMethodResponse, type ChargeResponse } from './payments/charges.responses.js';
export { ChargeDto, PaymentMethodDto } from './dto/charge.dto.js';
export type { Charge, NextActionItem, InstallmentDetails } from './entities/charge.entity.js';
export type { PaymentMethod } from './entities/payment-method.entity.js';
export { SandboxCollectionProvider, SANDBOX_PROMPTPAY_ID } from './payments/providers/sandbox-collection.provider.js';
export { ConfirmCheckoutService } from './payments/confirm-checkout.service.js';
export { CardTokensService } from './payments/card-tokens.service.js';
export { CollectionProviders } from './payments/providers/collection-providers.js';
export { ChargeOutcomesService } from './payments/charge-outcomes.service.js';
export { PaymentMethodsService } from './payment-methods/payment-methods.service.js';
export { OffSessionPaymentsService } from './payment-methods/off-session-payments.service.js';
export { ChargeReconciliationJob, CHARGE_UNANSWERED_AFTER_MS } from './payments/charge-reconciliation.job.js';
export { AuthorizationExpiryJob } from './payments/authorization-expiry.job.js';
export { CaptureClaimRecoveryJob } from './payments/capture-claim-recovery.job.js';
export { toInvoiceResponse, type InvoiceResponse } from './checkout.responses.js';
export { InvoiceDto } from './dto/responses.dto.js';
export {
  OffSessionInvoicesService,
  type InvoiceAttempt,
  type OnAttemptFailed,
} from './payment-methods/off-session-invoices.service.js';
export { InvoiceHooks, type InvoiceFinalized, type InvoicePaid } from './targets/invoice-hooks.js';
export type { Invoice, InvoiceLineItem, InvoiceCollectionMethod } from './entities/invoice.entity.js';
export { HostedUrls } from './checkouts/hosted-urls.js';
export { providerChargesSql } from './payments/charge-settlements.sql.js';
