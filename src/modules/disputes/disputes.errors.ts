import { defineErrors } from '../../common/errors/error-catalog.js';

/** Dispute codes (E95xx of the ledger-and-disputes group). */
export const DisputeErrors = defineErrors('disputes', {
  E9501: { key: 'charge_already_disputed', http_status: 409, message: 'This charge already has a dispute.' },
  E9502: {
    key: 'charge_not_disputable',
    http_status: 422,
    message: 'Only a paid charge can be disputed, for at most its captured amount.',
  },
  E9503: {
    key: 'dispute_evidence_past_due',
    http_status: 422,
    message: 'The evidence is past due: evidence_due_by has passed.',
  },
  E9504: { key: 'dispute_closed', http_status: 409, message: 'The dispute is closed (won, lost or warning_closed).' },
  E9505: {
    key: 'dispute_under_review',
    http_status: 409,
    message: 'The evidence was submitted: the dispute is under review and can no longer be changed or accepted.',
  },
  E9506: {
    key: 'charge_refunded',
    http_status: 422,
    message: 'The disputed amount is more than what is left of the charge after its refunds.',
  },
  E9507: {
    key: 'dispute_inquiry_not_losable',
    http_status: 409,
    message: 'An inquiry (warning_needs_response) cannot be lost: it moved no money.',
  },
  E9508: {
    key: 'dispute_evidence_file_invalid',
    http_status: 422,
    message: 'An evidence file must be a file of this application uploaded with purpose dispute_evidence.',
  },
  E9509: {
    key: 'dispute_evidence_refused',
    http_status: 422,
    message: 'The payment provider refused the evidence; nothing was submitted. Correct it and submit again.',
  },
  E9510: {
    key: 'dispute_close_refused',
    http_status: 422,
    message: 'The payment provider refused to close (accept) the dispute; it stays open here and there.',
  },
});
