import type { ProviderDispute } from '../../providers/ports/dispute.port.js';
import { isClosed, type DisputeStatus } from './dispute.transitions.js';

/** What the service has booked for a dispute so far (null: it does not know the dispute yet). */
export interface DisputeBook {
  status: DisputeStatus;
  funds_withdrawn: boolean;
  fee_booked: number;
}

/** What applying a provider's snapshot does, in this order: withdraw, fee, close. */
export interface SyncPlan {
  status: DisputeStatus;
  /** Book the opened journal (the disputed amount leaves the charge's balance). */
  withdraw: boolean;
  /** Book the provider's fee change (positive: charged; negative: returned). */
  feeDelta: number;
  /** The final journal to book and the dispute's closing status; null while it stays open. */
  close: 'won' | 'lost' | 'warning_closed' | null;
  /** The fee the lost journal books: the service's table fee when the provider reports none. */
  lostFee: number;
  /** A won dispute gives its funds back only when they were withdrawn. */
  reinstated: boolean;
}

/** Later in a dispute's life: a snapshot that is older than what was applied never moves it back. */
const STAGE: Record<DisputeStatus, number> = {
  warning_needs_response: 0,
  needs_response: 1,
  under_review: 2,
  won: 3,
  lost: 3,
  warning_closed: 3,
};

const INQUIRY: ReadonlySet<DisputeStatus> = new Set(['warning_needs_response', 'warning_closed']);

/**
 * Pure: how a provider's dispute snapshot moves the service's dispute `book`. Whatever the order
 * and number of deliveries (webhook replays, the reconciliation job's reads), each journal is
 * booked at most once: a closed dispute takes nothing more, the withdrawal is booked once, and the
 * fee is booked as the difference from what was booked.
 */
export function planProviderSync(
  book: DisputeBook | null,
  snapshot: Pick<ProviderDispute, 'status' | 'funds_withdrawn' | 'fee'>,
  tableFee: number,
): SyncPlan {
  if (book && isClosed(book.status)) {
    return { status: book.status, withdraw: false, feeDelta: 0, close: null, lostFee: 0, reinstated: false };
  }
  let status = snapshot.status;
  if (book) {
    const stale = STAGE[status] < STAGE[book.status];
    // A chargeback never turns back into an inquiry.
    const backToInquiry = INQUIRY.has(status) && !INQUIRY.has(book.status);
    if (stale || backToInquiry) status = book.status;
  }
  const withdrawn = book?.funds_withdrawn ?? false;
  const withdraw = !withdrawn && !INQUIRY.has(status) && (snapshot.funds_withdrawn || status === 'lost');
  const feeDelta = snapshot.fee === null ? 0 : snapshot.fee - (book?.fee_booked ?? 0);
  const closing = isClosed(status) && book?.status !== status;
  const close = closing ? (status as SyncPlan['close']) : null;
  return {
    status,
    withdraw,
    feeDelta,
    close,
    lostFee: close === 'lost' && snapshot.fee === null ? tableFee : 0,
    reinstated: close === 'won' && (withdrawn || withdraw),
  };
}
