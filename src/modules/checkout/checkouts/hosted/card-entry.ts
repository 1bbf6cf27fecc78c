import type { PageOrigins } from '../../../../common/http/hosted-page.js';

/**
 * Who takes the card number on the hosted checkout page (docs/PROVIDERS.md, "Live card entry"):
 * this service's test-mode vault (the sandbox), or the provider's own script in the browser
 * (Opn: Omise.js with the mode's public key), which answers a token the payment API is given.
 */
export type CardEntry = { provider: 'vault' } | { provider: 'opn'; publicKey: string; script: string };

/** Omise.js, Opn's browser tokenizer (https://docs.opn.ooo/omise-js). */
export const OMISE_JS = 'https://cdn.omise.co/omise.js';

/**
 * The origins each card entry needs beyond the page's own, and nothing more: Omise.js is loaded
 * from cdn.omise.co and posts the card to vault.omise.co (by XHR, or a frame it opens there).
 * The vault needs none: it is this service.
 */
export function cardEntryOrigins(entry: CardEntry): PageOrigins {
  if (entry.provider === 'opn') {
    return {
      script: ['https://cdn.omise.co'],
      frame: ['https://cdn.omise.co', 'https://vault.omise.co'],
      connect: ['https://vault.omise.co'],
    };
  }
  return {};
}
