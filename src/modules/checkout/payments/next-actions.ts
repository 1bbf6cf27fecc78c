import type { NextActionItem } from '../entities/charge.entity.js';
import type { ProviderPayment } from '../../../providers/ports/collection.port.js';

/** A provider's pending answer: a card charge may carry the issuer's 3-D Secure page. */
export type PendingAnswer = ProviderPayment & { authorizeUri?: string };

/**
 * What the payer does next for a pending charge: a card waiting for 3-D Secure goes to the
 * issuer's page (which sends them back to GET /provider_returns/{provider}/{charge id}); a
 * PromptPay charge shows its QR code; anything else waits with nothing to do.
 */
export function nextActionsOf(answer: PendingAnswer, paymentMethodId: string): NextActionItem[] {
  if (answer.authorizeUri && !answer.promptpay) {
    return [
      {
        type: 'redirect_to_url',
        title: 'Authenticate the card',
        description: "Complete 3-D Secure on the card issuer's page.",
        i18n_key: 'next_action.redirect_to_url',
        url: answer.authorizeUri,
        client_secret: null,
        payment_method: paymentMethodId,
        qr_data: null,
      },
    ];
  }
  if (answer.promptpay) {
    return [
      {
        type: 'promptpay_display_qr',
        title: 'Scan to pay with PromptPay',
        description: 'Scan the QR code with a Thai banking app before it expires.',
        i18n_key: 'next_action.promptpay_display_qr',
        url: null,
        client_secret: null,
        payment_method: paymentMethodId,
        qr_data: answer.promptpay.raw,
      },
    ];
  }
  return [];
}
