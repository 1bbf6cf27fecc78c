export {
  OpnClient,
  OpnApiError,
  OpnUnreachable,
  OPN_API_BASE,
  OPN_VAULT_BASE,
  OPN_DEFAULT_VERSION,
  type OpnClientOptions,
} from './opn-client.js';
export { OpnCollectionProvider, type OpnCollectionOptions, type OpnPayment } from './opn-collection.provider.js';
export { OpnTransferProvider, OPN_BANK_ACCOUNT } from './opn-transfer.provider.js';
export { OpnWebhooks, OpnWebhookRejected, OpnWebhookUnverifiable } from './opn-webhooks.js';
export { opnPlug } from './opn.plug.js';
export { OpnDisputeProvider, toProviderDispute as opnProviderDispute, type OpnDispute } from './opn-disputes.js';
export { OpnCollectionError, OpnTransferError, type OpnFailureFacts } from './opn-errors.js';
export { OPN_THAI_BANK_BRANDS, opnBankBrand } from './opn-banks.js';
export { opnClientOptions, type OpnMode } from './opn-config.js';
export { OpnSettlementProvider } from './opn-settlements.js';
