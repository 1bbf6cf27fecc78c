/** What allocation needs of a grant. */
export interface DrawableGrant {
  id: string;
  remaining: number;
  /** Empty: any price. */
  price_ids: string[];
  expires_at: Date | null;
}

/** A line credit may pay: its price (null: a line of no price, which only unrestricted credit pays) and amount. */
export interface PayableLine {
  price_id: string | null;
  amount: number;
}

export interface CreditDraw {
  grant_id: string;
  line_index: number;
  amount: number;
}

/**
 * The order grants are drawn in: the one expiring first first (never-expiring last), so credit that
 * would be lost goes first; on a tie, a grant restricted to some prices before one for any price (it
 * can pay fewer lines); then by id (creation order, UUIDv7).
 */
export function drawOrder(a: DrawableGrant, b: DrawableGrant): number {
  const ea = a.expires_at?.getTime() ?? Number.POSITIVE_INFINITY;
  const eb = b.expires_at?.getTime() ?? Number.POSITIVE_INFINITY;
  if (ea !== eb) return ea < eb ? -1 : 1;
  const ra = a.price_ids.length > 0 ? 0 : 1;
  const rb = b.price_ids.length > 0 ? 0 : 1;
  if (ra !== rb) return ra - rb;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * How much of each line each grant pays: the lines in order, each paid by the grants that apply to
 * its price in {@link drawOrder}, never more than a line's amount, a grant's remaining, or `limit`
 * in all. Pure: the caller posts and stores the draws.
 */
export function allocateCredit(grants: DrawableGrant[], lines: PayableLine[], limit?: number): CreditDraw[] {
  const ordered = [...grants].sort(drawOrder);
  const left = new Map(ordered.map((g) => [g.id, g.remaining]));
  let budget = limit ?? Number.POSITIVE_INFINITY;
  const draws: CreditDraw[] = [];
  lines.forEach((line, lineIndex) => {
    let due = Math.max(0, line.amount);
    for (const grant of ordered) {
      if (due === 0 || budget <= 0) break;
      const applies =
        grant.price_ids.length === 0 || (line.price_id !== null && grant.price_ids.includes(line.price_id));
      const available = left.get(grant.id)!;
      if (!applies || available === 0) continue;
      const amount = Math.min(due, available, budget);
      left.set(grant.id, available - amount);
      due -= amount;
      budget -= amount;
      draws.push({ grant_id: grant.id, line_index: lineIndex, amount });
    }
  });
  return draws;
}
