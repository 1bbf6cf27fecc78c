import { RequestContext } from '../../../src/common/context/request-context.js';
import { ModeDb } from '../../../src/common/database/mode-db.js';
import { newId } from '../../../src/common/ids.js';
import { CreditBalanceService, CreditGrantsJob, type CreditableInvoice } from '../../../src/modules/billing/index.js';
import { expectLedgerInvariants } from '../../support/ledger-invariants.js';
import { createTenant, expectErrorObject, startApp, type Tenant, type TestApp } from '../../support/harness.js';
import { advanceClock, createClock, createCustomer, createPrice, eventsOf } from '../../factories/subscriptions.js';

/**
 * Prepaid credit grants (docs/BILLING.md, "Prepaid credit"): the API, the ledger postings behind
 * them, expiry on a test clock and on the service clock, and CreditBalanceService.applyToInvoice
 * called as the invoicing code calls it, inside its own transaction with an invoice-like input.
 */
describe('billing: prepaid credit grants', () => {
  let t: TestApp;
  let tenant: Tenant;

  const post = (path: string, body: object = {}, headers: Record<string, string> = {}) =>
    t.http.post(tenant.path(path)).set(tenant.as('test', headers)).send(body);
  const get = (path: string) => t.http.get(tenant.path(path)).set(tenant.as('test'));
  const inTest = <T>(work: () => Promise<T>) => t.app.get(RequestContext).runInMode('test', work);
  const grant = async (customerId: string, body: object) => {
    const res = await post(`/customers/${customerId}/credit_grants`, { currency: 'THB', ...body });
    expect(res.status).toBe(200);
    return res.body as { id: string; remaining_amount: number; balance_id: string; status: string };
  };
  /** The customer's credit balance in the ledger (minor units available). */
  const creditBalance = async (customerId: string) => {
    const res = await get('/balances').query({
      'filter[customer_id]': customerId,
      'filter[account]': 'customer_credit',
    });
    expect(res.status).toBe(200);
    return res.body.data.length ? Number(res.body.data[0].available) : 0;
  };
  const apply = (invoice: Omit<CreditableInvoice, 'application_id' | 'id' | 'currency'> & { currency?: string }) =>
    inTest(() =>
      t.app.get(ModeDb).transaction((manager) =>
        t.app.get(CreditBalanceService).applyToInvoice(manager, {
          id: newId(),
          application_id: tenant.applicationId,
          currency: 'THB',
          ...invoice,
        }),
      ),
    );

  beforeAll(async () => {
    t = await startApp({ rateLimit: false });
    tenant = await createTenant(t);
  });
  afterAll(async () => {
    await expectLedgerInvariants(t, [tenant.applicationId]);
    await t.close();
  });

  it('grants credit into the ledger, lists and retrieves it, and records billing.credit_grant.created', async () => {
    const customer = await createCustomer(t, tenant);
    const created = await grant(customer.id, {
      amount: 50_000,
      name: 'Prepaid April',
      category: 'promotional',
      metadata: { order: 'PO-1' },
    });
    expect(created).toMatchObject({
      object: 'billing.credit_grant',
      livemode: false,
      customer_id: customer.id,
      name: 'Prepaid April',
      category: 'promotional',
      amount: 50_000,
      remaining_amount: 50_000,
      currency: 'THB',
      scaling_factor: 100,
      applicability: { price_ids: [] },
      status: 'active',
      expires_at: null,
      metadata: { order: 'PO-1' },
    });
    expect(await creditBalance(customer.id)).toBe(50_000);
    expect((await get(`/credit_grants/${created.id}`)).body).toEqual(created);
    const list = await get(`/customers/${customer.id}/credit_grants`);
    expect(list.body).toMatchObject({ object: 'list', total_items: 1, data: [created] });
    const [event] = (await eventsOf(t, tenant, 'billing.credit_grant.created')).filter(
      (e) => e.data.object.id === created.id,
    );
    expect(event.data.object).toEqual(created);
  });

  it('creates one grant for a repeated Idempotency-Key', async () => {
    const customer = await createCustomer(t, tenant);
    const key = `credit-${newId()}`;
    const first = await post(
      `/customers/${customer.id}/credit_grants`,
      { amount: 100, currency: 'THB' },
      { 'Idempotency-Key': key },
    );
    const again = await post(
      `/customers/${customer.id}/credit_grants`,
      { amount: 100, currency: 'THB' },
      { 'Idempotency-Key': key },
    );
    expect(again.body.id).toBe(first.body.id);
    expect(await creditBalance(customer.id)).toBe(100);
  });

  it('refuses an unknown customer, another currency, a past expiry and an unusable price, each with its code', async () => {
    const customer = await createCustomer(t, tenant, { currency: 'THB' });
    const usd = await createPrice(t, tenant, { currency: 'USD' });
    const cases: Array<[string, object, string, number]> = [
      [`/customers/${newId()}/credit_grants`, { amount: 100, currency: 'THB' }, 'E7880', 404],
      ['/customers/not-a-uuid/credit_grants', { amount: 100, currency: 'THB' }, 'E7880', 404],
      [`/customers/${customer.id}/credit_grants`, { amount: 100, currency: 'USD' }, 'E7881', 400],
      [
        `/customers/${customer.id}/credit_grants`,
        { amount: 100, currency: 'THB', expires_at: '2020-01-01T00:00:00Z' },
        'E7882',
        400,
      ],
      [
        `/customers/${customer.id}/credit_grants`,
        { amount: 100, currency: 'THB', applicability: { price_ids: [newId()] } },
        'E7883',
        400,
      ],
      [
        `/customers/${customer.id}/credit_grants`,
        { amount: 100, currency: 'THB', applicability: { price_ids: [usd.id] } },
        'E7883',
        400,
      ],
      [`/customers/${customer.id}/credit_grants`, { amount: 0, currency: 'THB' }, 'E2000', 400],
    ];
    for (const [path, body, code, status] of cases) {
      const res = await post(path, body);
      expect([res.status, res.body.code]).toEqual([status, code]);
      expectErrorObject(res.body, code);
    }
    expect(await creditBalance(customer.id)).toBe(0);
  });

  it('voids a grant: its remaining leaves the customer, a second void is E7884', async () => {
    const customer = await createCustomer(t, tenant);
    const created = await grant(customer.id, { amount: 7_000 });
    const voided = await post(`/credit_grants/${created.id}/void`);
    expect(voided.status).toBe(200);
    expect(voided.body).toMatchObject({ status: 'voided', remaining_amount: 0, voided_at: expect.any(String) });
    expect(await creditBalance(customer.id)).toBe(0);
    const again = await post(`/credit_grants/${created.id}/void`);
    expect(again.status).toBe(409);
    expectErrorObject(again.body, 'E7884');
    const events = await eventsOf(t, tenant, 'billing.credit_grant.voided');
    expect(events.find((e) => e.data.object.id === created.id)?.data.previous_attributes).toEqual({
      status: 'active',
      remaining_amount: 7_000,
    });
    expect((await post(`/credit_grants/${newId()}/void`)).status).toBe(404);
  });

  it("expires a grant at expires_at by its customer's test clock, and credit stops counting then", async () => {
    const clock = await createClock(t, tenant, '2026-03-01T00:00:00Z');
    const customer = await createCustomer(t, tenant, { test_clock: clock.id });
    const expiring = await grant(customer.id, { amount: 3_000, expires_at: '2026-03-10T00:00:00Z' });
    const lasting = await grant(customer.id, { amount: 1_000 });
    const job = () => t.app.get(CreditGrantsJob).run({ applicationIds: [tenant.applicationId] });
    expect(await job()).toEqual({ expired: 0 });
    await advanceClock(t, tenant, clock.id, '2026-03-10T00:00:00Z');
    // Before the job posts it, an invoice at the clock's time already cannot draw the expired grant.
    const applied = await apply({
      customer_id: customer.id,
      at: new Date('2026-03-10T00:00:00Z'),
      lines: [{ price_id: null, amount: 2_500 }],
    });
    expect(applied.draws).toEqual([{ grant_id: lasting.id, line_index: 0, amount: 1_000 }]);
    expect(await job()).toEqual({ expired: 1 });
    expect((await get(`/credit_grants/${expiring.id}`)).body).toMatchObject({
      status: 'expired',
      remaining_amount: 0,
      expired_at: '2026-03-10T00:00:00.000Z',
    });
    expect(await creditBalance(customer.id)).toBe(0);
    expect((await eventsOf(t, tenant, 'billing.credit_grant.expired')).map((e) => e.data.object.id)).toContain(
      expiring.id,
    );
  });

  it('expires a grant of a customer on the service clock when that clock passes expires_at', async () => {
    const customer = await createCustomer(t, tenant);
    const expiresAt = new Date(t.clock.nowMs() + 3_600_000).toISOString();
    const created = await grant(customer.id, { amount: 500, expires_at: expiresAt });
    t.clock.advance(3_600_000);
    await t.app.get(CreditGrantsJob).run({ applicationIds: [tenant.applicationId] });
    expect((await get(`/credit_grants/${created.id}`)).body).toMatchObject({ status: 'expired', remaining_amount: 0 });
  });

  describe('applyToInvoice', () => {
    it('draws the grant expiring first, restricted grants only for their prices, and posts one journal', async () => {
      const customer = await createCustomer(t, tenant);
      const [priceA, priceB] = [await createPrice(t, tenant), await createPrice(t, tenant)];
      const now = t.clock.nowMs();
      const soon = await grant(customer.id, { amount: 1_000, expires_at: new Date(now + 86_400_000).toISOString() });
      const onlyA = await grant(customer.id, {
        amount: 5_000,
        applicability: { price_ids: [priceA.id] },
        expires_at: new Date(now + 3 * 86_400_000).toISOString(),
      });
      const later = await grant(customer.id, {
        amount: 2_000,
        expires_at: new Date(now + 7 * 86_400_000).toISOString(),
      });
      const invoiceId = newId();
      const applied = await inTest(() =>
        t.app.get(ModeDb).transaction((manager) =>
          t.app.get(CreditBalanceService).applyToInvoice(manager, {
            id: invoiceId,
            application_id: tenant.applicationId,
            customer_id: customer.id,
            currency: 'THB',
            at: t.clock.now(),
            lines: [
              { price_id: priceB.id, amount: 1_500 },
              { price_id: priceA.id, amount: 4_000 },
            ],
          }),
        ),
      );
      expect(applied).toMatchObject({
        amount_applied: 5_500,
        draws: [
          { grant_id: soon.id, line_index: 0, amount: 1_000 },
          { grant_id: later.id, line_index: 0, amount: 500 },
          { grant_id: onlyA.id, line_index: 1, amount: 4_000 },
        ],
        journal_id: expect.any(String),
      });
      const remaining = async (id: string) => (await get(`/credit_grants/${id}`)).body.remaining_amount;
      expect([await remaining(soon.id), await remaining(onlyA.id), await remaining(later.id)]).toEqual([
        0, 1_000, 1_500,
      ]);
      expect(await creditBalance(customer.id)).toBe(2_500);
      const entries = await get('/balance_transactions').query({ customer_id: customer.id, limit: 100 });
      expect(entries.body.data.filter((e: { event_id: string }) => e.event_id === invoiceId)).toHaveLength(1);
    });

    it('caps at the limit, applies nothing without credit, and rolls back with the caller', async () => {
      const customer = await createCustomer(t, tenant);
      expect(
        await apply({ customer_id: customer.id, at: t.clock.now(), lines: [{ price_id: null, amount: 900 }] }),
      ).toEqual({
        amount_applied: 0,
        draws: [],
        journal_id: null,
        usage_released: 0,
      });
      const created = await grant(customer.id, { amount: 1_000 });
      const capped = await apply({
        customer_id: customer.id,
        at: t.clock.now(),
        lines: [{ price_id: null, amount: 900 }],
        limit: 300,
      });
      expect(capped.amount_applied).toBe(300);
      await expect(
        inTest(() =>
          t.app.get(ModeDb).transaction(async (manager) => {
            await t.app.get(CreditBalanceService).applyToInvoice(manager, {
              id: newId(),
              application_id: tenant.applicationId,
              customer_id: customer.id,
              currency: 'THB',
              at: t.clock.now(),
              lines: [{ price_id: null, amount: 700 }],
            });
            throw new Error('the invoice failed after drawing credit');
          }),
        ),
      ).rejects.toThrow('the invoice failed');
      expect((await get(`/credit_grants/${created.id}`)).body.remaining_amount).toBe(700);
      expect(await creditBalance(customer.id)).toBe(700);
    });
  });
});
