const DAY_MS = 86_400_000;

/**
 * When the next off-session attempt on an invoice is due (docs/BILLING.md, "Collection and
 * retries"). `schedule` is BILLING_RETRY_SCHEDULE: days after the first attempt (e.g. [1, 3, 5]:
 * retries 1, 3 and 5 days after it). Attempts are made at their scheduled time, so the next one is
 * the last one's scheduled time `scheduledAt` plus the gap to the next day of the schedule; after
 * `attemptsMade` attempts (the first included) with none left: null, the retries are exhausted.
 */
export function nextAttemptAt(scheduledAt: Date, attemptsMade: number, schedule: readonly number[]): Date | null {
  if (attemptsMade < 1 || attemptsMade > schedule.length) return null;
  const previousDay = attemptsMade >= 2 ? schedule[attemptsMade - 2] : 0;
  return new Date(scheduledAt.getTime() + (schedule[attemptsMade - 1] - previousDay) * DAY_MS);
}

/** A send_invoice invoice's due date: `days` whole days of 86,400 s after `finalizedAt` (Stripe's days_until_due). */
export function dueDateAfter(finalizedAt: Date, days: number): Date {
  return new Date(finalizedAt.getTime() + days * DAY_MS);
}
