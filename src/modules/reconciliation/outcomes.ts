/** How one provider reference compares with the ledger (docs/RECONCILIATION.md, "Outcomes"). */
export const OUTCOMES = [
  'matched',
  'missing_in_ledger',
  'missing_at_provider',
  'amount_mismatch',
  'fee_mismatch',
  'duplicate',
] as const;

export type Outcome = (typeof OUTCOMES)[number];

export const MISMATCHES: readonly Outcome[] = OUTCOMES.filter((o) => o !== 'matched');

/** Counts per outcome, every outcome present (0 when none). */
export function outcomeCounts(rows: ReadonlyArray<{ outcome: string; count: number }>): Record<Outcome, number> {
  const counts = Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<Outcome, number>;
  for (const row of rows) {
    if ((OUTCOMES as readonly string[]).includes(row.outcome)) counts[row.outcome as Outcome] += Number(row.count);
  }
  return counts;
}
