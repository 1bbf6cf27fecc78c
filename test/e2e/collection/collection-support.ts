import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { Mode } from '../../../src/common/context/principal.js';
import type { Tenant, TestApp } from '../../support/harness.js';

export const CARDS = {
  visa: '4242 4242 4242 4242',
  declined: '4000000000000002',
  insufficient: '4000000000009995',
  disputed: '4000000000000259',
  invalid: '4242424242424241',
};

export const card = (number: string, extra: Record<string, unknown> = {}) => ({
  payment_method_type: 'card',
  card: { number, exp_month: 12, exp_year: 2099, cvc: '123', ...extra },
});

export async function createCustomer(t: TestApp, tenant: Tenant, mode: Mode = 'test', body: object = {}) {
  const res = await t.http
    .post(tenant.path('/customers'))
    .set(tenant.as(mode))
    .send({ name: 'Somchai Jaidee', ...body });
  expect(res.status).toBe(200);
  return res.body as { id: string };
}

export async function createPaymentIntent(t: TestApp, tenant: Tenant, body: object = {}, mode: Mode = 'test') {
  const res = await t.http
    .post(tenant.path('/payment_intents'))
    .set(tenant.as(mode))
    .send({ amount: 125000, currency: 'THB', ...body });
  expect({ status: res.status, body: res.body }).toMatchObject({ status: 200 });
  return res.body;
}

/** An open (finalized) invoice for a new customer. */
export async function createOpenInvoice(t: TestApp, tenant: Tenant, body: object = {}, mode: Mode = 'test') {
  const customer = await createCustomer(t, tenant, mode);
  const res = await t.http
    .post(tenant.path('/invoices'))
    .set(tenant.as(mode))
    .send({
      customer_id: customer.id,
      currency: 'THB',
      line_items: [
        { description: 'Consulting', amount: 50000, quantity: 2 },
        { description: 'Loyalty discount', amount: -5000 },
      ],
      ...body,
    });
  expect({ status: res.status, body: res.body }).toMatchObject({ status: 200 });
  const finalized = await t.http.post(tenant.path(`/invoices/${res.body.id}/finalize`)).set(tenant.as(mode));
  expect(finalized.status).toBe(200);
  return finalized.body;
}

export async function createCheckout(t: TestApp, tenant: Tenant, body: object, mode: Mode = 'test') {
  const res = await t.http.post(tenant.path('/checkouts')).set(tenant.as(mode)).send(body);
  expect({ status: res.status, body: res.body }).toMatchObject({ status: 200 });
  return res.body;
}

/** What the hosted page sends: the session and the country, nothing else. */
export function asSession(session: string, country = 'TH') {
  return { 'X-Session-Token': session, 'X-Country': country };
}

export function confirm(t: TestApp, tenant: Tenant, checkout: { id: string; session: string }, body: object) {
  return t.http
    .post(tenant.path(`/checkouts/${checkout.id}/confirm`))
    .set(asSession(checkout.session))
    .send(body);
}

/** A KYB-verified connected account (through the accounts API and its test helper). */
export async function connectedAccount(t: TestApp, tenant: Tenant, verify = true) {
  const res = await t.http.post(tenant.path('/accounts')).set(tenant.as('test')).send({ name: 'Seller Co.' });
  expect({ status: res.status, body: res.body }).toMatchObject({ status: 200 });
  if (verify) {
    const verified = await t.http
      .post(tenant.path(`/test_helpers/accounts/${res.body.id}/verify`))
      .set(tenant.as('test'));
    expect(verified.status).toBe(200);
  }
  return res.body as { id: string };
}

/**
 * The ledger invariants of decisions.md (the checks of test/e2e/ledger/posting.property.e2e-spec.ts),
 * for the given applications in both modes: every journal sums to zero per currency, every
 * balance's available and hold equal the sums of its entries, and the running balances of each
 * balance form one chain from zero.
 */
export async function expectLedgerInvariants(t: TestApp, applicationIds: string[]): Promise<void> {
  for (const mode of ['test', 'live'] as Mode[]) {
    const schema = `wallet_${mode}`;
    const ds = t.app.get<DataSource>(getDataSourceToken(schema));
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
    // The hold queue never outlives its entries' journals: every queued release is a positive hold.
    const badQueue = await ds.query(
      `SELECT r.entry_id FROM ${schema}.hold_releases r JOIN ${schema}.balance_transactions e ON e.id = r.entry_id
        WHERE r.application_id = ANY($1::uuid[]) AND (e.state <> 'hold' OR e.amount <= 0)`,
      [applicationIds],
    );
    expect(badQueue).toEqual([]);
  }
}
