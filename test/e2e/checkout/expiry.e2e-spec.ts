import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { Mode } from '../../../src/common/context/principal.js';
import { CheckoutExpiryJob, EXPIRED_PROMPTPAY } from '../../../src/modules/checkout/index.js';
import { createTenant, expectErrorObject, startApp, type Tenant, type TestApp } from '../../support/harness.js';
import {
  CARDS,
  card,
  confirm,
  createCheckout,
  createOpenInvoice,
  expectLedgerInvariants,
  paymentIntentCheckout,
} from '../../factories/checkout.js';

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

type Row = Record<string, unknown>;

describe('the expiry sweep: checkouts and pending PromptPay charges expire in the stored rows', () => {
  let t: TestApp;
  let sweeper: CheckoutExpiryJob;
  const tenants: string[] = [];

  beforeAll(async () => {
    t = await startApp({ rateLimit: false, liveDoubles: true });
    sweeper = t.app.get(CheckoutExpiryJob);
  });
  afterEach(() => t.clock.reset());
  afterAll(async () => {
    await expectLedgerInvariants(t, tenants);
    await t.close();
  });

  const tenant = async () => {
    const created = await createTenant(t);
    tenants.push(created.applicationId);
    return created;
  };
  /** One sweep of these applications' rows at the service clock's now (other test files share the database). */
  const sweep = (...scoped: Tenant[]) =>
    sweeper.sweep(t.clock.now(), { applicationIds: scoped.map((s) => s.applicationId) });
  const get = (tn: Tenant, path: string, mode: Mode = 'test') => t.http.get(tn.path(path)).set(tn.as(mode));
  /** The stored row, read past the API (which evaluates expiry when it reads). */
  const stored = async (table: string, id: string, mode: Mode = 'test'): Promise<Row | undefined> => {
    const ds = t.app.get<DataSource>(getDataSourceToken(`wallet_${mode}`));
    const rows: Row[] = await ds.query(`SELECT * FROM wallet_${mode}.${table} WHERE id = $1`, [id]);
    return rows[0];
  };
  const promptPay = async (tn: Tenant, checkout: { id: string; session: string }) => {
    const res = await confirm(t, tn, checkout, { payment_method_type: 'promptpay' });
    expect({ status: res.status, charge: res.body.charge?.status }).toEqual({ status: 200, charge: 'pending' });
    return res.body.charge as { id: string; expires_at: string };
  };
  const journalsOf = async (tn: Tenant) => {
    const ds = t.app.get<DataSource>(getDataSourceToken('wallet_test'));
    const rows = await ds.query(`SELECT count(*) AS n FROM wallet_test.journals WHERE application_id = $1`, [
      tn.applicationId,
    ]);
    return Number(rows[0].n);
  };

  it('expires an open checkout past its expiry in its row and fails its pending PromptPay charge; a younger one is untouched', async () => {
    const tn = await tenant();
    const { pi, checkout } = await paymentIntentCheckout(t, tn);
    const charge = await promptPay(tn, checkout);
    t.clock.advance(12 * HOUR);
    const young = await paymentIntentCheckout(t, tn);
    t.clock.advance(12 * HOUR + 1000);

    expect((await get(tn, `/checkouts/${checkout.id}`)).body.status).toBe('expired'); // read-time, before any sweep
    expect(await stored('checkouts', checkout.id)).toMatchObject({ status: 'open' });
    const youngBefore = await stored('checkouts', young.checkout.id);

    expect(await sweep(tn)).toEqual({ checkouts_expired: 1, charges_failed: 1 });

    expect(await stored('checkouts', checkout.id)).toMatchObject({
      status: 'expired',
      expires_at: new Date(checkout.expires_at),
      expired_at: new Date(checkout.expires_at),
      pending_charge_id: null,
    });
    expect((await get(tn, `/checkouts/${checkout.id}`)).body).toMatchObject({
      status: 'expired',
      payment_status: 'unpaid',
      expired_at: checkout.expires_at,
    });
    expect((await get(tn, `/charges/${charge.id}`)).body).toMatchObject({
      status: 'failed',
      paid: false,
      canceled: false,
      failure_code: EXPIRED_PROMPTPAY.code,
      failure_reason: 'qr_code_expired', // its 15 minutes ran out long before the checkout's 24 hours
      failure_message: EXPIRED_PROMPTPAY.qr.message,
      settlement_status: null,
      next_action: [],
      balance: null,
    });
    expect((await get(tn, `/payment_intents/${pi.id}`)).body).toMatchObject({
      status: 'requires_payment_method',
      latest_charge: charge.id,
      last_payment_error: { code: 'expired', message: EXPIRED_PROMPTPAY.qr.message, charge: charge.id },
    });
    expect(await journalsOf(tn)).toBe(0); // a pending charge never booked anything, so there is nothing to undo

    expect(await stored('checkouts', young.checkout.id)).toEqual(youngBefore);
    expect((await get(tn, `/checkouts/${young.checkout.id}`)).body.status).toBe('open');
    const byStatus = async (status: string) =>
      ((await get(tn, `/checkouts?filter[status]=${status}`)).body.data as Row[]).map((c) => c.id);
    expect(await byStatus('expired')).toEqual([checkout.id]);
    expect(await byStatus('open')).toEqual([young.checkout.id]);

    expect(await sweep(tn)).toEqual({ checkouts_expired: 0, charges_failed: 0 });
    const late = await confirm(t, tn, checkout, card(CARDS.visa));
    expect(late.status).toBe(400);
    expectErrorObject(late.body, 'E7005');
    // The payment intent stays payable: a new checkout collects it.
    const again = await createCheckout(t, tn, { target_type: 'payment_intent', target_id: pi.id });
    expect((await confirm(t, tn, again, card(CARDS.visa))).body.charge.status).toBe('succeeded');
    expect((await get(tn, `/payment_intents/${pi.id}`)).body.status).toBe('succeeded');
  });

  it('fails a pending PromptPay charge once its QR code expired, leaving its checkout open for another attempt', async () => {
    const tn = await tenant();
    const { pi, checkout } = await paymentIntentCheckout(t, tn);
    const charge = await promptPay(tn, checkout);
    t.clock.advance(14 * MINUTE);
    expect(await sweep(tn)).toEqual({ checkouts_expired: 0, charges_failed: 0 });
    expect((await get(tn, `/charges/${charge.id}`)).body.status).toBe('pending');

    t.clock.advance(2 * MINUTE);
    expect(await sweep(tn)).toEqual({ checkouts_expired: 0, charges_failed: 1 });
    expect((await get(tn, `/charges/${charge.id}`)).body).toMatchObject({
      status: 'failed',
      failure_code: 'expired',
      failure_reason: 'qr_code_expired',
    });
    expect(await stored('checkouts', checkout.id)).toMatchObject({ status: 'open', pending_charge_id: null });
    expect((await get(tn, `/payment_intents/${pi.id}`)).body).toMatchObject({
      status: 'requires_payment_method',
      last_payment_error: { code: 'expired', charge: charge.id },
    });
    const failed = await get(tn, `/charges?filter[failure_code]=expired`);
    expect((failed.body.data as Row[]).map((c) => c.id)).toEqual([charge.id]);

    const noQr = await t.http.post(tn.path(`/test_helpers/checkouts/${checkout.id}/pay_promptpay`)).set(tn.as('test'));
    expect(noQr.status).toBe(400);
    expectErrorObject(noQr.body, 'E7018');
    const fresh = await promptPay(tn, checkout);
    expect((await get(tn, `/charges/${charge.id}`)).body.status).toBe('failed'); // not turned into "canceled"
    expect((await get(tn, `/payment_intents/${pi.id}`)).body).toMatchObject({
      status: 'processing',
      latest_charge: fresh.id,
    });
    const paid = await t.http.post(tn.path(`/test_helpers/checkouts/${checkout.id}/pay_promptpay`)).set(tn.as('test'));
    expect(paid.body.charge).toMatchObject({ id: fresh.id, status: 'succeeded' });
    expect(await sweep(tn)).toEqual({ checkouts_expired: 0, charges_failed: 0 });
  });

  it('leaves the same state through the test helper as through the sweep', async () => {
    const tn = await tenant();
    /** What a checkout, its PromptPay charge and its payment intent look like once expired. */
    const outcome = async (checkoutId: string, chargeId: string, piId: string) => {
      const co = (await get(tn, `/checkouts/${checkoutId}`)).body;
      const ch = (await get(tn, `/charges/${chargeId}`)).body;
      const pi = (await get(tn, `/payment_intents/${piId}`)).body;
      const row = (await stored('checkouts', checkoutId))!;
      return {
        checkout: {
          status: co.status,
          payment_status: co.payment_status,
          expired_at_is_expiry: co.expired_at === co.expires_at,
        },
        row: { status: row.status, pending_charge_id: row.pending_charge_id },
        charge: [
          ch.status,
          ch.paid,
          ch.canceled,
          ch.failure_code,
          ch.failure_reason,
          ch.failure_message,
          ch.next_action,
        ],
        payment_intent: {
          status: pi.status,
          code: pi.last_payment_error?.code,
          message: pi.last_payment_error?.message,
        },
      };
    };

    // A QR code still valid when the checkout expires: the helper now, the sweep after 24 hours.
    const byHelper = await paymentIntentCheckout(t, tn);
    const helperCharge = await promptPay(tn, byHelper.checkout);
    const expired = await t.http
      .post(tn.path(`/test_helpers/checkouts/${byHelper.checkout.id}/expire`))
      .set(tn.as('test'));
    expect(expired.body).toMatchObject({ status: 'expired' });
    const bySweep = await paymentIntentCheckout(t, tn);
    t.clock.advance(DAY - 5 * MINUTE);
    const sweepCharge = await promptPay(tn, bySweep.checkout);
    t.clock.advance(5 * MINUTE + 1000);
    expect(await sweep(tn)).toEqual({ checkouts_expired: 1, charges_failed: 1 });

    const viaHelper = await outcome(byHelper.checkout.id, helperCharge.id, byHelper.pi.id);
    const viaSweep = await outcome(bySweep.checkout.id, sweepCharge.id, bySweep.pi.id);
    expect(viaHelper).toEqual(viaSweep);
    expect(viaSweep.charge.slice(3, 5)).toEqual(['expired', 'checkout_expired']);
    expect(viaSweep.payment_intent).toEqual({
      status: 'requires_payment_method',
      code: 'expired',
      message: EXPIRED_PROMPTPAY.checkout.message,
    });
    expect(viaSweep.row).toEqual({ status: 'expired', pending_charge_id: null });

    // Past its expiry but not yet swept: the helper keeps the checkout's own expires_at, as the sweep would.
    const overdue = await createCheckout(t, tn, {
      target_type: 'invoice',
      target_id: (await createOpenInvoice(t, tn)).id,
    });
    t.clock.advance(DAY + 1000);
    const late = await t.http.post(tn.path(`/test_helpers/checkouts/${overdue.id}/expire`)).set(tn.as('test'));
    expect(late.body).toMatchObject({
      status: 'expired',
      expires_at: overdue.expires_at,
      expired_at: overdue.expires_at,
    });
    expect(await stored('checkouts', overdue.id)).toMatchObject({
      status: 'expired',
      expires_at: new Date(overdue.expires_at),
      expired_at: new Date(overdue.expires_at),
    });
  });

  it('sweeps live rows in the live schema and every application, when not scoped (the periodic run)', async () => {
    const own = await tenant();
    const other = await tenant();
    // Made a day and more in the past, so they are expired by the real time the unscoped run uses.
    t.clock.advance(-(DAY + HOUR));
    const live = await paymentIntentCheckout(t, own, {}, 'live');
    const liveCharge = await promptPay(own, live.checkout);
    const test = await paymentIntentCheckout(t, own);
    const theirs = await createCheckout(t, other, {
      target_type: 'invoice',
      target_id: (await createOpenInvoice(t, other)).id,
    });
    t.clock.reset();
    const current = await paymentIntentCheckout(t, other);

    const result = await sweeper.sweep(t.clock.now());
    expect(result.checkouts_expired).toBeGreaterThanOrEqual(3);
    expect(result.charges_failed).toBeGreaterThanOrEqual(1);

    expect(await stored('checkouts', live.checkout.id, 'live')).toMatchObject({ status: 'expired' });
    expect(await stored('checkouts', live.checkout.id, 'test')).toBeUndefined();
    expect(await stored('charges', liveCharge.id, 'live')).toMatchObject({ status: 'failed', failure_code: 'expired' });
    expect((await get(own, `/payment_intents/${live.pi.id}`, 'live')).body.status).toBe('requires_payment_method');
    expect(await stored('checkouts', test.checkout.id)).toMatchObject({ status: 'expired' });
    expect(await stored('checkouts', theirs.id)).toMatchObject({ status: 'expired' });
    expect((await get(other, `/invoices/${theirs.target_id}`)).body.status).toBe('open'); // still payable
    expect(await stored('checkouts', current.checkout.id)).toMatchObject({ status: 'open' });
  });

  // On the embedded database (one session) the two sweeps take turns; on PostgreSQL they run side by side.
  it('shares the work between concurrent sweeps: each row is processed once', async () => {
    const tn = await tenant();
    const made = [];
    for (let i = 0; i < 6; i++) {
      const { checkout } = await paymentIntentCheckout(t, tn);
      await promptPay(tn, checkout);
      made.push(checkout.id);
    }
    t.clock.advance(DAY + 1000);
    const [a, b] = await Promise.all([sweep(tn), sweep(tn)]);
    expect(a.checkouts_expired + b.checkouts_expired).toBe(6);
    expect(a.charges_failed + b.charges_failed).toBe(6);
    for (const id of made) expect(await stored('checkouts', id)).toMatchObject({ status: 'expired' });
  });

  // The embedded database is one session: a transaction held open here would hold every other connection.
  (process.env.WALLET_TEST_DATABASE === 'postgresql' ? it : it.skip)(
    'skips a checkout another transaction holds (FOR UPDATE SKIP LOCKED) and takes it on the next run',
    async () => {
      const tn = await tenant();
      const held = await paymentIntentCheckout(t, tn);
      const free = await paymentIntentCheckout(t, tn);
      t.clock.advance(DAY + 1000);
      const runner = t.app.get<DataSource>(getDataSourceToken('wallet_test')).createQueryRunner();
      await runner.connect();
      try {
        await runner.startTransaction();
        await runner.query(`SELECT id FROM wallet_test.checkouts WHERE id = $1 FOR UPDATE`, [held.checkout.id]);
        expect(await sweep(tn)).toEqual({ checkouts_expired: 1, charges_failed: 0 });
        expect(await stored('checkouts', free.checkout.id)).toMatchObject({ status: 'expired' });
        expect(await stored('checkouts', held.checkout.id)).toMatchObject({ status: 'open' });
        await runner.rollbackTransaction();
      } finally {
        await runner.release();
      }
      expect(await sweep(tn)).toEqual({ checkouts_expired: 1, charges_failed: 0 });
      expect(await stored('checkouts', held.checkout.id)).toMatchObject({ status: 'expired' });
    },
  );
});
