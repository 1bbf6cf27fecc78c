import type { NextActionItem } from '../entities/charge.entity.js';
import type { ProviderPayment } from '../../../providers/ports/collection.port.js';
import { paymentMethodInfo, type PaymentMethodType } from '../../../providers/ports/payment-method-types.js';

/** A provider's pending answer: a card charge may carry the issuer's 3-D Secure page. */
export type PendingAnswer = ProviderPayment & { authorizeUri?: string };

/**
 * What the payer does next for a pending charge: a card waiting for 3-D Secure goes to the
 * issuer's page (which sends them back to GET /provider_returns/{provider}/{charge id}); a
 * PromptPay charge shows its QR code; a redirect flow (TrueMoney, a mobile banking app, an
 * installment issuer) goes to the provider's page or the app (`redirect_to_url`, the registry's
 * name in the title); another QR flow shows its code (`display_qr_code`); anything else waits.
 */
export function nextActionsOf(
  answer: PendingAnswer,
  paymentMethodId: string,
  type: PaymentMethodType = answer.promptpay ? 'promptpay' : 'card',
): NextActionItem[] {
  const name = paymentMethodInfo(type).name.en;
  if (answer.redirectUrl) {
    return [
      {
        type: 'redirect_to_url',
        title: `Pay with ${name}`,
        description: paymentMethodInfo(type).appDeepLink
          ? `Open ${name} to authorize the payment; on a phone the link opens the app.`
          : `Authorize the payment on the ${name} page, then come back.`,
        i18n_key: 'next_action.redirect_to_url',
        url: answer.redirectUrl,
        client_secret: null,
        payment_method: paymentMethodId,
        qr_data: null,
      },
    ];
  }
  if (answer.qr) {
    return [
      {
        type: 'display_qr_code',
        title: `Scan to pay with ${name}`,
        description: `Scan the QR code with a ${name} app before it expires.`,
        i18n_key: 'next_action.display_qr_code',
        // The QR code's image (a PNG data URL or the provider's image URL), as Stripe's `image_url_png`.
        url: answer.qr.image,
        client_secret: null,
        payment_method: paymentMethodId,
        qr_data: answer.qr.raw,
      },
    ];
  }
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
