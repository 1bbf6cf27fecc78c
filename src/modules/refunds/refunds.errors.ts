import { defineErrors } from '../../common/errors/error-catalog.js';

/** Refund codes (E75xx of the collection group, reserved for refunds). */
export const RefundErrors = defineErrors('refunds', {
  E7501: {
    key: 'refund_exceeds_charge',
    http_status: 400,
    message: 'The refund is more than what is left of the charge.',
  },
  E7502: {
    key: 'charge_not_refundable',
    http_status: 422,
    message: 'Only a succeeded, paid charge can be refunded.',
  },
  E7503: {
    key: 'charge_already_refunded',
    http_status: 409,
    message: 'The charge is already fully refunded (counting pending refunds).',
  },
  E7504: {
    key: 'refund_balance_insufficient',
    http_status: 422,
    message: 'The refund would take its balance below what the policy allows (zero less the charge’s unreturned fee).',
  },
  E7505: {
    key: 'charge_disputed',
    http_status: 409,
    message: 'A disputed charge cannot be refunded: the dispute decides the money.',
  },
  E7506: {
    key: 'refund_transfer_options_invalid',
    http_status: 422,
    message: 'reverse_transfer and refund_application_fee apply only to destination charges (transfer_data).',
  },
});
