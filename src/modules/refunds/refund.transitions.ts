import { AppError } from '../../common/errors/app-error.js';
import { Errors } from '../../common/errors/error-catalog.js';

/**
 * A refund is recorded `pending` before its provider is called; the provider's answer is applied
 * as an event: `succeed` (card refunds at once, PromptPay ones when they settle), `fail` (refused,
 * or the provider could not be reached), `cancel` (reserved: nothing cancels a refund yet).
 */
export type RefundStatus = 'pending' | 'succeeded' | 'failed' | 'canceled';
export type RefundEvent = 'succeed' | 'fail' | 'cancel';
export const NEW_REFUND_STATUS: RefundStatus = 'pending';
export const REFUND_STATUSES: RefundStatus[] = ['pending', 'succeeded', 'failed', 'canceled'];

const NEXT: Record<RefundStatus, Partial<Record<RefundEvent, RefundStatus>>> = {
  pending: { succeed: 'succeeded', fail: 'failed', cancel: 'canceled' },
  succeeded: {},
  failed: {},
  canceled: {},
};

/** The refund's state after `event`, or E4090 when the refund is past that point. */
export function refundTransition(from: RefundStatus, event: RefundEvent, id: string): RefundStatus {
  const to = NEXT[from]?.[event];
  if (!to) throw new AppError(Errors.E4090, `Refund "${id}" is ${from}; it cannot ${event}.`);
  return to;
}
