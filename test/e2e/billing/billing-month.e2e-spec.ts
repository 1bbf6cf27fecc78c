import type { Browser } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { InvoiceCollectionJob } from '../../../src/modules/billing/collection/index.js';
import { WebhookDeliveryJob } from '../../../src/modules/events/index.js';
import { expectLedgerInvariants } from '../../factories/checkout.js';
import { DAY_MS, daysAgo, meterTime, runInvoicingJob, verifyInvoice } from '../../factories/invoicing.js';
import { saveCard, SAVED_CARDS, setupCheckout } from '../../factories/payment-methods.js';
import { advanceClock, createClock, createCustomer, createPrice } from '../../factories/subscriptions.js';
import { launchBrowser } from '../../support/browser.js';
import { createTenant, startApp, type Tenant, type TestApp } from '../../support/harness.js';
import { WebhookReceiver } from '../../support/webhook-receiver.js';

const BROWSER_TEST_LIMIT_MS = 300_000;

/** round_half_up(amount x 7 / 100): Thai VAT of one line, as docs/BILLING.md rounds it. */
const vat7 = (amount: number) => Math.floor((14 * amount + 100) / 200);
/** The graduated metered price by hand: the first 100 calls free, 1.00 THB each up to 1,000, 0.50 THB beyond. */
const usageCost = (calls: number) => Math.max(0, Math.min(calls, 1_000) - 100) * 100 + Math.max(0, calls - 1_000) * 50;

/**
 * Issue #35's "Done when": a month of usage for three customers on one test clock
 * (docs/BILLING.md, "The life of a period", "Collection and retries", "Credit on the invoice").
 * Each subscription: 2 x 299.00 THB licensed, a graduated metered price, a 10% forever coupon and
 * Thai VAT 7% exclusive. (a) charge_automatically with a card that succeeds, and 500.00 THB of
 * prepaid credit for the metered price only; (b) a card that fails twice, then a new default card
 * pays at the second retry; (c) send_invoice, paid by PromptPay on the hosted invoice page in
 * Chromium. Every total is checked to the satang against the computation written here, events
 * arrive signed, the ledger invariants hold after each step.
 */
describe('a month of billing for three customers', () => {
  let t: TestApp;
  let tenant: Tenant;
  let browser: Browser;
  let receiver: WebhookReceiver;
  let endpointSecret: string;

  beforeAll(async () => {
    t = await startApp({ listen: true, rateLimit: false, env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
    tenant = await createTenant(t, { name: 'Siam Cloud' });
    receiver = await new WebhookReceiver().start();
    endpointSecret = (await post('/webhook_endpoints', { url: receiver.url, enabled_events: ['*'] })).secret;
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await receiver?.stop();
    await t?.close();
  });

  async function post(path: string, body: object) {
    const res = await t.http.post(tenant.path(path)).set(tenant.as('test')).send(body);
    expect({ path, status: res.status, body: res.body }).toMatchObject({ status: 200 });
    return res.body;
  }
  const get = async (path: string, query: Record<string, string> = {}) =>
    (await t.http.get(tenant.path(path)).query(query).set(tenant.as('test'))).body;
  const collect = () => t.app.get(InvoiceCollectionJob).run({ applicationIds: [tenant.applicationId] });
  const ledgerHolds = () => expectLedgerInvariants(t, [tenant.applicationId]);

  async function newDefaultCard(customerId: string, number: string): Promise<string> {
    const saved = await saveCard(t, tenant, await setupCheckout(t, tenant, customerId), number);
    expect(saved.status).toBe(200);
    const id = saved.body.payment_method.id as string;
    await post(`/customers/${customerId}`, { invoice_settings: { default_payment_method: id } });
    return id;
  }

  it(
    'bills, credits, retries and collects a month of usage, exact to the satang',
    async () => {
      // The catalog.
      const licensed = await createPrice(t, tenant, { unit_amount: 29_900 });
      const metered = (await createPrice(t, tenant, {
        usage_type: 'metered',
        extra: {
          billing_scheme: 'tiered',
          tiers_mode: 'graduated',
          tiers: [
            { up_to: 100, unit_amount: 0 },
            { up_to: 1_000, unit_amount: 100 },
            { up_to: 'inf', unit_amount: 50 },
          ],
        },
      })) as { id: string; recurring: { meter_id: string } };
      const meter = await get(`/meters/${metered.recurring.meter_id}`);
      const vat = await post('/tax_rates', { display_name: 'VAT', percentage: 7, inclusive: false, country: 'TH' });
      const coupon = await post('/coupons', { percent_off: 10, duration: 'forever', name: 'Launch' });

      // The month starts 33 days ago (meter events are accepted 35 days back).
      const start = daysAgo(t, 33);
      const day = (n: number) => new Date(start.getTime() + n * DAY_MS);
      const clock = await createClock(t, tenant, start.toISOString());
      const a = await createCustomer(t, tenant, { name: 'A (card)', test_clock: clock.id });
      const b = await createCustomer(t, tenant, { name: 'B (card fails)', test_clock: clock.id });
      const c = await createCustomer(t, tenant, { name: 'C (send_invoice)', test_clock: clock.id });
      await newDefaultCard(a.id, SAVED_CARDS.succeeds);
      await newDefaultCard(b.id, SAVED_CARDS.succeeds);
      const plan = {
        items: [{ price_id: licensed.id, quantity: 2 }, { price_id: metered.id }],
        coupon: coupon.id,
        default_tax_rates: [vat.id],
      };
      const subA = await post('/subscriptions', { customer_id: a.id, ...plan });
      const subB = await post('/subscriptions', { customer_id: b.id, ...plan });
      const subC = await post('/subscriptions', {
        customer_id: c.id,
        ...plan,
        collection_method: 'send_invoice',
        days_until_due: 10,
      });
      const grant = await post(`/customers/${a.id}/credit_grants`, {
        amount: 50_000,
        currency: 'THB',
        applicability: { price_ids: [metered.id] },
        name: 'Prepaid usage',
      });

      // First invoices (subscription_create), licensed items only: 2 x 299.00 = 598.00; less 10% =
      // 538.20; VAT 7% of 538.20 = 37.674 -> 37.67; total 575.87.
      const firstTotal = 59_800 - 5_980 + vat7(53_820);
      expect(firstTotal).toBe(57_587);
      for (const sub of [subA, subB, subC]) {
        expect(await get(`/invoices/${sub.latest_invoice}`)).toMatchObject({
          billing_reason: 'subscription_create',
          total: firstTotal,
          amount_due: firstTotal,
        });
      }
      expect(await collect()).toEqual({ paid: 2, failed: 0, skipped: 0 });
      expect((await get(`/subscriptions/${subA.id}`)).status).toBe('active');
      expect((await get(`/subscriptions/${subB.id}`)).status).toBe('active');
      await ledgerHolds();

      // B's card is replaced by one that will be declined.
      await newDefaultCard(b.id, SAVED_CARDS.declined);

      // A month of usage: A 1,250 calls, B 400, C 150 (one repeat identifier that counts once).
      const usage: Array<[{ id: string }, number, number]> = [
        [a, 2, 700],
        [a, 9, 300],
        [a, 20, 250],
        [b, 3, 150],
        [b, 15, 250],
        [c, 5, 100],
        [c, 25, 50],
      ];
      for (const [customer, when, calls] of usage) {
        const body = {
          event_name: meter.event_name,
          customer_id: customer.id,
          identifier: `month-${customer.id}-${when}`,
          timestamp: meterTime(day(when)),
          payload: { calls: String(calls) },
        };
        await post('/meter_events', body);
        if (when === 9) await post('/meter_events', body);
      }

      // The period ends; the clock passes the grace hour: the close and the finalization.
      const end = new Date(subA.current_period_end as string);
      await advanceClock(t, tenant, clock.id, new Date(end.getTime() + 2 * 3_600_000).toISOString());
      expect((await runInvoicingJob(t, tenant)).finalized).toBe(3);
      const cycleOf = async (sub: { id: string }) => {
        const found = (await get(`/subscriptions/${sub.id}`)).latest_invoice as string;
        const invoice = await get(`/invoices/${found}`);
        expect(invoice).toMatchObject({
          billing_reason: 'subscription_cycle',
          subscription: sub.id,
          period_start: start.toISOString(),
          period_end: end.toISOString(),
        });
        expect(await verifyInvoice(t, invoice.id)).toMatchObject({ differences: [] });
        return invoice;
      };

      // (a) 2 x 299.00 for the next month, 1,250 calls = 900 x 1.00 + 250 x 0.50 = 1,025.00; 10% off
      // each line (59.80 and 102.50); 500.00 of credit on the usage line only (its price); VAT on what
      // is left of each line: 538.20 -> 37.67, 922.50 - 500.00 = 422.50 -> 29.575 -> 29.58.
      const usageA = usageCost(1_250);
      expect(usageA).toBe(102_500);
      const totalA = 59_800 + usageA - (5_980 + 10_250) + vat7(53_820) + vat7(usageA - 10_250 - 50_000);
      expect(totalA).toBe(152_795);
      const invoiceA = await cycleOf(subA);
      expect(invoiceA).toMatchObject({
        status: 'open',
        subtotal: 59_800 + usageA,
        total: totalA,
        credit_applied: 50_000,
        amount_due: totalA - 50_000,
      });
      const linesA = (await get(`/invoices/${invoiceA.id}/lines`)).data as Array<Record<string, unknown>>;
      expect(linesA.find((l) => l.type === 'metered')).toMatchObject({
        amount: usageA,
        discount_amount: 10_250,
        credit_amount: 50_000,
        usage: { event_count: 3, quantity: '1250' },
      });
      expect(linesA.find((l) => l.type === 'subscription')).toMatchObject({ amount: 59_800, credit_amount: 0 });
      expect(await get(`/credit_grants/${grant.id}`)).toMatchObject({ remaining_amount: 0 });

      // (b) 400 calls = 300 x 1.00 = 300.00; less 10%: 538.20 and 270.00; VAT 37.67 and 18.90.
      const usageB = usageCost(400);
      const totalB = 59_800 + usageB - (5_980 + 3_000) + vat7(53_820) + vat7(usageB - 3_000);
      expect(totalB).toBe(86_477);
      const invoiceB = await cycleOf(subB);
      expect(invoiceB).toMatchObject({ status: 'open', total: totalB, credit_applied: 0, amount_due: totalB });

      // (c) 150 calls = 50 x 1.00 = 50.00; less 10%: 538.20 and 45.00; VAT 37.67 and 3.15.
      const usageC = usageCost(150);
      const totalC = 59_800 + usageC - (5_980 + 500) + vat7(53_820) + vat7(usageC - 500);
      expect(totalC).toBe(62_402);
      const invoiceC = await cycleOf(subC);
      expect(invoiceC).toMatchObject({
        status: 'open',
        collection_method: 'send_invoice',
        total: totalC,
        amount_due: totalC,
        hosted_invoice_url: expect.any(String),
      });
      await ledgerHolds();

      // A is charged what the credit left; B's declined card fails (attempt 1).
      expect(await collect()).toEqual({ paid: 1, failed: 1, skipped: 0 });
      const paidA = await get(`/invoices/${invoiceA.id}`);
      expect(paidA).toMatchObject({ status: 'paid', amount_paid: totalA - 50_000, amount_remaining: 0 });
      expect(await get(`/charges/${paidA.charge_id}`)).toMatchObject({ status: 'succeeded', amount: totalA - 50_000 });
      const failedOnce = await get(`/invoices/${invoiceB.id}`);
      expect(failedOnce).toMatchObject({ status: 'open', attempt_count: 1 });
      expect((await get(`/subscriptions/${subB.id}`)).status).toBe('past_due');
      await ledgerHolds();

      // Retry 1 (a day later) fails too; a new default card is set; retry 2 pays.
      await advanceClock(t, tenant, clock.id, failedOnce.next_payment_attempt as string);
      expect(await collect()).toEqual({ paid: 0, failed: 1, skipped: 0 });
      const failedTwice = await get(`/invoices/${invoiceB.id}`);
      expect(failedTwice).toMatchObject({ status: 'open', attempt_count: 2 });
      const fresh = await newDefaultCard(b.id, SAVED_CARDS.succeeds);
      await advanceClock(t, tenant, clock.id, failedTwice.next_payment_attempt as string);
      expect(await collect()).toEqual({ paid: 1, failed: 0, skipped: 0 });
      const paidB = await get(`/invoices/${invoiceB.id}`);
      expect(paidB).toMatchObject({ status: 'paid', amount_paid: totalB, attempt_count: 3 });
      expect(await get(`/charges/${paidB.charge_id}`)).toMatchObject({ amount: totalB, payment_method_id: fresh });
      expect((await get(`/subscriptions/${subB.id}`)).status).toBe('active');
      await ledgerHolds();

      // (c) The hosted invoice page in Chromium, paid by PromptPay.
      const hosted = new URL(invoiceC.hosted_invoice_url as string);
      const page = await browser.newPage();
      await page.goto(`${t.url}${hosted.pathname}?locale=en`);
      expect(await page.locator('#amount').textContent()).toBe('฿624.02');
      await page.getByRole('link', { name: 'Pay this invoice' }).click();
      await page.getByRole('tab', { name: 'PromptPay' }).click();
      await page.getByRole('button', { name: 'Pay with PromptPay' }).click();
      await page.getByRole('img', { name: /PromptPay QR code/ }).waitFor();
      await Promise.all([
        page.waitForRequest((req) => new URL(req.url()).pathname === hosted.pathname),
        page.getByRole('button', { name: 'Simulate PromptPay payment (test mode)' }).click(),
      ]);
      await page.close();
      const paidC = await get(`/invoices/${invoiceC.id}`);
      expect(paidC).toMatchObject({ status: 'paid', amount_paid: totalC });
      expect(await get(`/charges/${paidC.charge_id}`)).toMatchObject({
        amount: totalC,
        payment_method: { type: 'promptpay' },
      });
      await ledgerHolds();

      // The events arrive signed, and say what happened.
      await t.app.get(WebhookDeliveryJob).deliverDue(['test'], { applicationIds: [tenant.applicationId] });
      const verifier = new Webhook(endpointSecret);
      expect(receiver.received.length).toBeGreaterThan(0);
      for (const delivery of receiver.received) {
        expect(verifier.verify(delivery.body, delivery.headers as Record<string, string>)).toEqual(delivery.event);
      }
      const ids = (type: string) =>
        receiver.ofType(type).map((r) => (r.event.data as { object: { id: string } }).object.id);
      const cycle = [invoiceA.id, invoiceB.id, invoiceC.id];
      expect(ids('invoice.finalized')).toEqual(expect.arrayContaining(cycle));
      expect(ids('invoice.paid')).toEqual(expect.arrayContaining(cycle));
      expect(ids('invoice.payment_failed')).toEqual([invoiceB.id, invoiceB.id]);
    },
    BROWSER_TEST_LIMIT_MS,
  );
});
