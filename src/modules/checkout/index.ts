export { CheckoutModule } from './checkout.module.js';
export { CheckoutErrors } from './checkout.errors.js';
export { PaymentIntentsService } from './payment-intents.service.js';
export { InvoicesService } from './invoices.service.js';
export { CheckoutsService } from './checkouts.service.js';
export { CheckoutExpiryService, EXPIRED_PROMPTPAY } from './checkout-expiry.service.js';
export { ChargesService } from './charges.service.js';
export { SandboxCollectionProvider, SANDBOX_PROMPTPAY_ID } from './providers/sandbox-collection.provider.js';
