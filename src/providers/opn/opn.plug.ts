import { OpnClient, type OpnClientOptions } from './opn-client.js';
import { OpnCollectionProvider } from './opn-collection.provider.js';
import { OpnDisputeProvider } from './opn-disputes.js';
import { opnClientOptions } from './opn-config.js';
import { OpnSettlementProvider } from './opn-settlements.js';
import { OpnTransferProvider } from './opn-transfer.provider.js';
import { OpnWebhooks } from './opn-webhooks.js';
import { perMode, settingsPerMode, type ProviderPlug } from '../ports/provider-plug.port.js';

/**
 * Opn Payments (Omise), Thailand: card and PromptPay collection, refunds, bank transfers to
 * recipients, disputes and their evidence, webhooks read back by id. No Connect accounts: connected accounts live in the
 * service's books only.
 */
export const opnPlug: ProviderPlug<OpnClientOptions> = {
  name: 'opn',
  keys: {
    prefix: 'OPN',
    secret: 'SECRET_KEY',
    public: 'PUBLIC_KEY',
    formats: { test: [/^skey_test_\w+$/, /^pkey_test_\w+$/], live: [/^skey_(?!test_)\w+$/, /^pkey_(?!test_)\w+$/] },
  },
  settings: (env, modes) => settingsPerMode(modes, (mode) => opnClientOptions(env, mode)),
  plug(settings, links) {
    const clients = perMode(settings, (options) => new OpnClient(options));
    return {
      collection: perMode(clients, (client) => new OpnCollectionProvider(client, { returnUri: links.returnUri })),
      transfer: perMode(clients, (client) => new OpnTransferProvider(client)),
      disputes: perMode(clients, (client) => new OpnDisputeProvider(client)),
      settlements: perMode(clients, (client) => new OpnSettlementProvider(client)),
      webhooks: new OpnWebhooks(clients),
    };
  },
};
