import { AppError } from '../../common/errors/app-error.js';
import { Errors } from '../../common/errors/error-catalog.js';

export type ReportRunStatus = 'pending' | 'succeeded' | 'failed';
export type ReportRunEvent = 'succeed' | 'fail';

const NEXT: Record<ReportRunStatus, Partial<Record<ReportRunEvent, ReportRunStatus>>> = {
  pending: { succeed: 'succeeded', fail: 'failed' },
  succeeded: {},
  failed: {},
};

export function reportRunTransition(from: ReportRunStatus, event: ReportRunEvent, id: string): ReportRunStatus {
  const to = NEXT[from][event];
  if (!to) throw new AppError(Errors.E4090, `Report run "${id}" is ${from}; it cannot ${event}.`);
  return to;
}
