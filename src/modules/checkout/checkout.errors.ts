import { defineErrors } from '../../common/errors/error-catalog.js';

/** Collection codes (E7xxx): payment intents, invoices, checkouts, charges, payment links. */
export const CheckoutErrors = defineErrors('checkout', {
  E7001: {
    key: 'collection_target_not_found',
    http_status: 404,
    message: 'No invoice or payment intent with this id exists in this application and mode.',
  },
  E7002: { key: 'target_already_paid', http_status: 400, message: 'The target is already paid.' },
  E7003: {
    key: 'target_not_payable',
    http_status: 400,
    message: 'The target cannot be paid (void, canceled or still a draft).',
  },
  E7004: {
    key: 'currency_not_allowed_in_country',
    http_status: 400,
    message: 'This currency cannot be collected in the application country (X-Country).',
  },
  E7005: { key: 'checkout_expired', http_status: 400, message: 'The checkout has expired and cannot be paid.' },
  E7006: { key: 'checkout_not_open', http_status: 400, message: 'The checkout is already complete.' },
  E7007: {
    key: 'payment_method_not_allowed',
    http_status: 400,
    message: 'This payment method type is not allowed for this payment.',
  },
  E7008: { key: 'card_invalid', http_status: 400, message: 'The card details are incomplete or invalid.' },
  E7009: {
    key: 'checkout_mode_unsupported',
    http_status: 400,
    message: 'Only checkouts in mode "payment" are supported; subscriptions and setup are not.',
  },
  E7010: { key: 'promotion_code_not_found', http_status: 400, message: 'No such promotion code.' },
  E7011: {
    key: 'application_fee_invalid',
    http_status: 400,
    message: 'application_fee_amount needs a transfer destination and must leave the destination a positive amount.',
  },
  E7012: {
    key: 'transfer_destination_not_found',
    http_status: 404,
    message: 'transfer_data.destination is not an account of this application and mode.',
  },
  E7013: {
    key: 'transfer_destination_not_connected',
    http_status: 400,
    message: "transfer_data.destination must be a connected account, not the application's own account.",
  },
  E7014: {
    key: 'customer_not_found',
    http_status: 404,
    message: 'customer_id is not a customer of this application and mode.',
  },
  E7015: {
    key: 'invoice_not_editable',
    http_status: 400,
    message: 'The invoice cannot make this transition from its current status.',
  },
  E7016: {
    key: 'payment_intent_not_cancelable',
    http_status: 400,
    message: 'Only a payment intent that has not succeeded can be canceled.',
  },
  E7017: {
    key: 'promptpay_unavailable',
    http_status: 400,
    message: 'PromptPay collects Thai baht (THB) only.',
  },
  E7018: {
    key: 'charge_not_pending',
    http_status: 400,
    message: 'The checkout has no pending PromptPay charge, or its QR code has expired.',
  },
  E7019: { key: 'amount_invalid', http_status: 400, message: 'The amount is out of the accepted range.' },
  E7020: { key: 'payment_link_inactive', http_status: 400, message: 'The payment link is deactivated.' },
  E7021: {
    key: 'card_token_invalid',
    http_status: 400,
    message: 'The card token is unknown, already used, expired, or was made for another checkout.',
  },
  E7022: {
    key: 'provider_return_unknown',
    http_status: 404,
    message: 'No charge of this provider has this id: the 3-D Secure return link is not valid.',
  },
  E7030: {
    key: 'payment_method_not_found',
    http_status: 404,
    message: 'No saved payment method with this id exists in this application and mode.',
  },
  E7031: {
    key: 'payment_method_not_attached',
    http_status: 400,
    message: 'The payment method is detached, or is not attached to this customer.',
  },
  E7032: {
    key: 'off_session_confirmation_invalid',
    http_status: 400,
    message:
      'Confirming a payment intent with a saved payment method needs customer_id, payment_method and confirm: true; off_session needs confirm.',
  },
  E7033: {
    key: 'setup_checkout_invalid',
    http_status: 400,
    message:
      'A checkout in mode "setup" has target_type "customer" and a customer id as target_id; only setup checkouts have that target.',
  },
  E7034: {
    key: 'saved_cards_live_unavailable',
    http_status: 400,
    message: 'The live provider of this country does not save cards (mode "setup") or charge this saved card.',
  },
  E7035: {
    key: 'payment_intent_not_confirmable',
    http_status: 400,
    message: 'The payment intent cannot be confirmed off-session from its current status.',
  },
  E7070: {
    key: 'subscription_checkout_target_invalid',
    http_status: 400,
    message:
      'A checkout in mode "subscription" has target_type "customer" and the subscribing customer as target_id; subscription_data.customer_id, when sent, is that customer.',
  },
  E7071: {
    key: 'subscription_checkout_line_items_required',
    http_status: 400,
    message: 'A checkout in mode "subscription" needs line_items: recurring prices, each once, with a quantity.',
  },
  E7072: {
    key: 'subscription_data_unsupported',
    http_status: 400,
    message:
      'A subscription_data field this service cannot honour: default_fees, a collection_method other than charge_automatically, or an unknown payment_settings.save_default_payment_method.',
  },
  E7073: {
    key: 'subscription_checkout_live_unavailable',
    http_status: 400,
    message: 'Checkouts in mode "subscription" save the card while charging it; that runs in test mode only for now.',
  },
  E7074: {
    key: 'subscription_checkout_currency_mismatch',
    http_status: 400,
    message: 'subscription_data.currency differs from the currency of the line items.',
  },
  E7075: {
    key: 'subscription_data_without_subscription',
    http_status: 400,
    message: 'subscription_data is only taken with mode "subscription".',
  },
  E7076: {
    key: 'promotion_code_not_allowed',
    http_status: 400,
    message:
      'A promotion code is entered on the page only for an open, unpaid subscription checkout with allow_promotion_codes and no code applied yet.',
  },
  E7100: {
    key: 'payment_intent_already_captured',
    http_status: 400,
    message: 'The payment intent was already captured (or a capture of it is in progress).',
  },
  E7101: {
    key: 'payment_intent_not_capturable',
    http_status: 400,
    message: 'The payment intent has no authorization to capture (it is not requires_capture).',
  },
  E7102: {
    key: 'amount_to_capture_invalid',
    http_status: 400,
    message: 'amount_to_capture must be at least 1 and at most the amount_capturable of the payment intent.',
  },
  E7103: {
    key: 'capture_method_unsupported',
    http_status: 400,
    message: 'capture_method "manual" collects cards only: payment_method_types must be ["card"].',
  },
  E7104: {
    key: 'authorization_expired',
    http_status: 400,
    message: 'The authorization expired and was voided: nothing can be captured.',
  },
  E7077: {
    key: 'payment_method_expired',
    http_status: 400,
    message: 'The saved card has expired (its expiry month is over): it cannot be a default payment method.',
  },
  E7400: {
    key: 'payment_method_country_unsupported',
    http_status: 400,
    message: 'This payment method type cannot be collected in the application country (X-Country).',
  },
  E7401: {
    key: 'payment_method_currency_unsupported',
    http_status: 400,
    message: 'This payment method type cannot collect this currency.',
  },
  E7402: {
    key: 'payment_method_amount_out_of_range',
    http_status: 400,
    message: "The amount is below this payment method type's minimum or above its maximum for the currency.",
  },
  E7403: {
    key: 'payment_method_provider_unsupported',
    http_status: 400,
    message: 'The collection provider serving the application country does not offer this payment method type.',
  },
  E7404: {
    key: 'payment_method_not_refundable',
    http_status: 400,
    message: "The charge's payment method type cannot be refunded through its provider: refund the buyer another way.",
  },
  E7405: {
    key: 'payment_method_partial_refund_unsupported',
    http_status: 400,
    message: "The charge's payment method type can only be refunded in full.",
  },
  E7406: {
    key: 'refund_window_closed',
    http_status: 400,
    message: "The charge is older than its payment method type's refund window.",
  },
  E7407: {
    key: 'installment_term_invalid',
    http_status: 400,
    message: "installment_term must be one of the issuer's terms, and is sent only with an installment_* type.",
  },
  E7408: {
    key: 'installment_amount_too_small',
    http_status: 400,
    message: "The monthly amount of this term is below the issuer's minimum: choose a shorter term.",
  },
  E7409: {
    key: 'charge_not_simulatable',
    http_status: 400,
    message:
      'Only a pending QR or redirect charge of a provider with a test mode simulation can be made to succeed or fail.',
  },
  E7450: {
    key: 'payment_bank_invalid',
    http_status: 400,
    message:
      'bank is required for a payment method type whose payer picks a bank (FPX), must be one of its banks, and is not sent with any other type.',
  },
});
