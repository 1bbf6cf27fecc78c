import { AppError } from '../../common/errors/app-error.js';
import { Errors } from '../../common/errors/error-catalog.js';

export type ReconciliationRunStatus = 'pending' | 'succeeded' | 'failed';
export type ReconciliationRunEvent = 'succeed' | 'fail';

const NEXT: Record<ReconciliationRunStatus, Partial<Record<ReconciliationRunEvent, ReconciliationRunStatus>>> = {
  pending: { succeed: 'succeeded', fail: 'failed' },
  succeeded: {},
  failed: {},
};

export function reconciliationRunTransition(
  from: ReconciliationRunStatus,
  event: ReconciliationRunEvent,
  id: string,
): ReconciliationRunStatus {
  const to = NEXT[from][event];
  if (!to) throw new AppError(Errors.E4090, `Reconciliation run "${id}" is ${from}; it cannot ${event}.`);
  return to;
}
