import { AppError } from '../../common/errors/app-error.js';
import { DisputeErrors } from './disputes.errors.js';

export const DISPUTE_STATUSES = [
  'warning_needs_response',
  'needs_response',
  'under_review',
  'won',
  'lost',
  'warning_closed',
] as const;
export type DisputeStatus = (typeof DISPUTE_STATUSES)[number];

/**
 * What can happen to a dispute:
 * - `save`: evidence is saved without submitting it (`submit: false`);
 * - `submit`: evidence is submitted to the provider (`submit: true`);
 * - `accept`: the merchant accepts the dispute (`POST /disputes/{id}/close`);
 * - `win` / `lose`: the provider decides (test mode: `POST /test_helpers/disputes/{id}/win|lose`).
 */
export type DisputeEvent = 'save' | 'submit' | 'accept' | 'win' | 'lose';

/** The state machine of docs/DISPUTES.md; a missing arrow is refused with the code of REFUSAL. */
const NEXT: Record<DisputeStatus, Partial<Record<DisputeEvent, DisputeStatus>>> = {
  // An inquiry (retrieval request): no money moved. Evidence is saved or submitted and the inquiry
  // stays open until the provider closes it (win) or the merchant accepts it; escalation to a
  // chargeback is not built (see docs/DISPUTES.md), so `lose` is refused.
  warning_needs_response: {
    save: 'warning_needs_response',
    submit: 'warning_needs_response',
    accept: 'warning_closed',
    win: 'warning_closed',
  },
  needs_response: { save: 'needs_response', submit: 'under_review', accept: 'lost', win: 'won', lose: 'lost' },
  under_review: { win: 'won', lose: 'lost' },
  won: {},
  lost: {},
  warning_closed: {},
};

export const CLOSED_STATUSES: ReadonlySet<DisputeStatus> = new Set(['won', 'lost', 'warning_closed']);

export const isClosed = (status: string): boolean => CLOSED_STATUSES.has(status as DisputeStatus);

/**
 * The dispute's status after `event`, or the precise refusal: E9504 on a closed dispute, E9505 for
 * evidence or acceptance while under review, E9507 for deciding `lose` on an inquiry.
 */
export function disputeTransition(from: DisputeStatus, event: DisputeEvent): DisputeStatus {
  const to = NEXT[from]?.[event];
  if (to) return to;
  if (isClosed(from)) throw new AppError(DisputeErrors.E9504, `The dispute is ${from}: it is closed.`);
  if (from === 'under_review') {
    throw new AppError(
      DisputeErrors.E9505,
      `The dispute is under review: its evidence was submitted and it can no longer be ${event === 'accept' ? 'accepted' : 'changed'}.`,
    );
  }
  throw new AppError(DisputeErrors.E9507, `A ${from} dispute (an inquiry) cannot be lost: no money moved.`);
}
