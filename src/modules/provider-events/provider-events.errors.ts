import { defineErrors } from '../../common/errors/error-catalog.js';

/** Inbound provider webhooks (E52xx of the dependency group). */
export const ProviderEventErrors = defineErrors('provider-events', {
  E5201: {
    key: 'provider_webhook_rejected',
    http_status: 400,
    message:
      'The provider webhook could not be verified (bad signature, or an event the provider does not know); nothing was changed.',
  },
  E5202: {
    key: 'provider_webhook_unverifiable',
    http_status: 503,
    message:
      'The provider could not be reached to verify the webhook; nothing was changed. The provider delivers it again.',
  },
  E5203: {
    key: 'provider_webhook_not_configured',
    http_status: 404,
    message: 'This service has no keys (or no webhook secret) for that provider in that mode.',
  },
});
