import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { TestApp } from './harness.js';
import { MODES } from '../../src/common/tenancy/modes.js';
import { HotLegsRepository } from '../../src/modules/ledger/index.js';

/**
 * The ledger invariants of decisions.md, checked by the ledger's property tests and after the
 * collection tests, for the given applications in both modes: every journal sums to zero per currency, every
 * balance's available and hold equal the sums of its entries, and the running balances of each
 * balance form one chain from zero, in the order of its hash chain, whose hashes recompute. The balance policy: no hold below zero, and no balance that only
 * holds money on its way (refunds pending, payouts in transit, open disputes) or a customer's prepaid
 * credit below zero; the queued
 * hold releases of a balance never add up to more than its hold (so no release takes it below zero).
 * Call it when no hold release job is running (a release removes its queue rows before its posting).
 */
export async function expectLedgerInvariants(t: TestApp, applicationIds: string[]): Promise<void> {
  for (const mode of MODES) {
    const schema = `wallet_${mode}`;
    const ds = t.app.get<DataSource>(getDataSourceToken(schema));
    // Queued legs on hot balances (docs/LEDGER.md, "Hot balances") are applied first, as the sweep would:
    // then every journal has all its entries.
    await t.app.get(HotLegsRepository).drain(mode);
    const queued = await ds.query(
      `SELECT entry_id FROM ${schema}.pending_legs WHERE application_id = ANY($1::uuid[])`,
      [applicationIds],
    );
    expect(queued).toEqual([]);
    const unbalanced = await ds.query(
      `SELECT journal_id, currency, sum(amount) AS total FROM ${schema}.balance_transactions
        WHERE application_id = ANY($1::uuid[]) GROUP BY journal_id, currency HAVING sum(amount) <> 0`,
      [applicationIds],
    );
    expect(unbalanced).toEqual([]);
    const drift = await ds.query(
      `SELECT b.id FROM ${schema}.balances b
         LEFT JOIN (SELECT balance_id,
                           sum(amount) FILTER (WHERE state = 'available') AS available,
                           sum(amount) FILTER (WHERE state = 'hold') AS hold
                      FROM ${schema}.balance_transactions WHERE application_id = ANY($1::uuid[]) GROUP BY balance_id) s
           ON s.balance_id = b.id
        WHERE b.application_id = ANY($1::uuid[])
          AND (b.available <> coalesce(s.available, 0) OR b.hold <> coalesce(s.hold, 0))`,
      [applicationIds],
    );
    expect(drift).toEqual([]);
    // Postings on a balance are serialized by its lock, so its entries' running balances form one
    // chain from 0: the values before the entries are 0 and every running balance but the last.
    const chain: Array<{ balance_id: string; amount: string; running_balance: string; total: string }> = await ds.query(
      `SELECT e.balance_id, e.amount::text, e.running_balance::text, (b.available + b.hold)::text AS total
           FROM ${schema}.balance_transactions e JOIN ${schema}.balances b ON b.id = e.balance_id
          WHERE e.application_id = ANY($1::uuid[])`,
      [applicationIds],
    );
    const perBalance = new Map<string, { before: bigint[]; after: bigint[]; total: bigint }>();
    for (const r of chain) {
      const entry = perBalance.get(r.balance_id) ?? { before: [], after: [0n], total: BigInt(r.total) };
      entry.before.push(BigInt(r.running_balance) - BigInt(r.amount));
      entry.after.push(BigInt(r.running_balance));
      perBalance.set(r.balance_id, entry);
    }
    for (const { before, after, total } of perBalance.values()) {
      after.splice(after.indexOf(total, 1), 1);
      const sort = (xs: bigint[]) => xs.map(String).sort();
      expect(sort(before)).toEqual(sort(after));
    }
    // The hash chain (docs/LEDGER.md, "Statements"): each balance's entries take places 1..n in
    // posting order, each entry_hash is recomputed from the previous one, the running balances follow
    // that order, and the balance's head is the last entry's hash and count.
    const unchained = await ds.query(
      `SELECT e.id FROM (SELECT e.*, row_number() OVER w AS place, lag(e.entry_hash) OVER w AS prev_hash,
                                lag(e.running_balance) OVER w AS prev_running
                           FROM ${schema}.balance_transactions e WHERE e.application_id = ANY($1::uuid[])
                         WINDOW w AS (PARTITION BY e.balance_id ORDER BY e.chain_seq)) e
        WHERE e.entry_hash IS NULL OR e.chain_seq <> e.place
           OR e.running_balance <> coalesce(e.prev_running, 0) + e.amount
           OR e.entry_hash <> ${schema}.ledger_entry_hash(coalesce(e.prev_hash, repeat('0', 64)), e.chain_seq, e.id,
                e.balance_id, e.journal_id, e.amount, e.currency, e.state, e.running_balance, e.created_at)`,
      [applicationIds],
    );
    expect(unchained).toEqual([]);
    const badHeads = await ds.query(
      `SELECT b.id FROM ${schema}.balances b
         LEFT JOIN LATERAL (SELECT count(*) AS n, (array_agg(entry_hash ORDER BY chain_seq DESC))[1] AS last
                              FROM ${schema}.balance_transactions e WHERE e.balance_id = b.id) c ON true
        WHERE b.application_id = ANY($1::uuid[])
          AND (b.chain_count <> c.n OR b.chain_head <> coalesce(c.last, repeat('0', 64)))`,
      [applicationIds],
    );
    expect(badHeads).toEqual([]);
    // The hold queue never outlives its entries' journals: every queued release is a positive hold of
    // its balance, with at most the entry's amount left to release.
    const badQueue = await ds.query(
      `SELECT r.entry_id FROM ${schema}.hold_releases r JOIN ${schema}.balance_transactions e ON e.id = r.entry_id
        WHERE r.application_id = ANY($1::uuid[])
          AND (e.state <> 'hold' OR e.amount <= 0 OR r.balance_id <> e.balance_id OR r.amount <= 0 OR r.amount > e.amount)`,
      [applicationIds],
    );
    expect(badQueue).toEqual([]);
    const belowPolicy = await ds.query(
      `SELECT b.id, b.account, b.available::text, b.hold::text, coalesce(q.queued, 0)::text AS queued
         FROM ${schema}.balances b
         LEFT JOIN (SELECT balance_id, sum(amount) AS queued FROM ${schema}.hold_releases GROUP BY balance_id) q
           ON q.balance_id = b.id
        WHERE b.application_id = ANY($1::uuid[])
          AND (b.hold < 0 OR coalesce(q.queued, 0) > b.hold
               OR (b.account IN ('refunds_pending', 'payouts_in_transit', 'disputes', 'customer_credit') AND b.available + b.hold < 0))`,
      [applicationIds],
    );
    expect(belowPolicy).toEqual([]);
  }
}
