import type { EntityManager } from 'typeorm';

/**
 * What applying a provider's outcome did: `applied` (the record changed), `unchanged` (nothing to
 * do: still pending, already final, or no longer the current attempt), `duplicate` (this notice
 * was applied before), `unknown` (no record has that reference in this mode).
 */
export type OutcomeResult = 'applied' | 'unchanged' | 'duplicate' | 'unknown';

/**
 * Records a provider notice once, inside the transaction that applies it (the provider-events
 * module's provider_events row): false when it was recorded before, and then nothing changes.
 */
export type ClaimNotice = (manager: EntityManager) => Promise<boolean>;

/**
 * The first step of applying any provider outcome (charges, refunds), inside the applying
 * transaction: a notice is claimed before anything changes, so a webhook delivered twice (or a
 * webhook racing the reconciliation read-back) changes the record once. Without a claim (a
 * read-back has no notice to record) it applies directly.
 */
export async function claimThenApply<T>(
  manager: EntityManager,
  claim: ClaimNotice | undefined,
  apply: () => Promise<T>,
): Promise<T | 'duplicate'> {
  if (claim && !(await claim(manager))) return 'duplicate';
  return apply();
}

/**
 * The reconciliation loop shared by charges and refunds: reads each pending record back from its
 * provider, one at a time, and applies the answers that are final. `readBack` answers null when
 * the provider could not be asked; the record is left for the next run.
 */
export async function readBackAndApply<R, A extends { status: string }>(
  pending: readonly R[],
  readBack: (record: R) => Promise<A | null>,
  apply: (record: R, answer: A) => Promise<OutcomeResult>,
): Promise<{ read: number; applied: number }> {
  let applied = 0;
  for (const record of pending) {
    const answer = await readBack(record);
    if (!answer || answer.status === 'pending') continue;
    if ((await apply(record, answer)) === 'applied') applied += 1;
  }
  return { read: pending.length, applied };
}
