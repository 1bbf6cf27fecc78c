import { AppError } from '../../../common/errors/app-error.js';
import { CheckoutErrors } from '../checkout.errors.js';
import type { InvoiceStatus } from '../entities/invoice.entity.js';

export const NEW_INVOICE_STATUS: InvoiceStatus = 'draft';

/** `finalize`: draft -> open (payable); `pay`: open -> paid; `void`: draft or open -> void. */
export type InvoiceEvent = 'finalize' | 'pay' | 'void';

const NEXT: Record<InvoiceStatus, Partial<Record<InvoiceEvent, InvoiceStatus>>> = {
  draft: { finalize: 'open', void: 'void' },
  open: { pay: 'paid', void: 'void' },
  paid: {},
  void: {},
};

/** The invoice's state after `event`, or E7015 naming the state it cannot leave that way. */
export function invoiceTransition(from: InvoiceStatus, event: InvoiceEvent, id: string): InvoiceStatus {
  const to = NEXT[from][event];
  if (!to) {
    const target = event === 'finalize' ? 'open' : event === 'pay' ? 'paid' : 'void';
    throw new AppError(CheckoutErrors.E7015, `Invoice "${id}" is ${from}; it cannot become ${target}.`);
  }
  return to;
}
