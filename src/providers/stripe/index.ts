export {
  createStripeClient,
  stripeClientOptions,
  STRIPE_API_VERSION,
  type StripeClientOptions,
  type StripeMode,
} from './stripe-config.js';
export {
  StripeCollectionProvider,
  type StripeCollectionOptions,
  type StripePayment,
  type StripeCardIntent,
} from './stripe-collection.provider.js';
export {
  StripeTransferProvider,
  STRIPE_EXTERNAL_ACCOUNT,
  type StripeTransferOptions,
} from './stripe-transfer.provider.js';
export { StripeWebhooks, StripeWebhookRejected, type StripeWebhookMode } from './stripe-webhooks.js';
export { stripePlug, type StripeSettings } from './stripe.plug.js';
export { StripeDisputeProvider, toProviderDispute as stripeProviderDispute } from './stripe-disputes.js';
export { StripeCollectionError, StripeTransferError, type StripeFailureFacts } from './stripe-errors.js';
export { StripeConnectProvider, stripeKyb } from './stripe-connect.provider.js';
export { StripeSettlementProvider } from './stripe-settlements.js';
