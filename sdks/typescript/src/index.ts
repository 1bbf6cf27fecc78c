export { WalletClient, queryString, type WalletClientOptions } from './client.js';
export { WalletError, type WalletErrorObject } from './errors.js';
export { DEFAULT_RETRY, isRetryable, retryAfterMs, retryDelayMs, type RetryPolicy } from './retry.js';
export { WebhookVerificationError, WebhookVerifier } from './webhooks.js';
export type * from './types.js';
export type { components, operations, paths } from './generated/wallet-api.js';
