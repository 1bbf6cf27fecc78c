import { Webhook } from 'standardwebhooks';
import { scopeOf } from '../../../src/common/context/principal.js';
import { RequestContext } from '../../../src/common/context/request-context.js';
import { ModeDb } from '../../../src/common/database/mode-db.js';
import { ApplicationsService } from '../../../src/modules/applications/index.js';
import { InvoiceCollectionJob } from '../../../src/modules/billing/collection/index.js';
import { InvoicesService } from '../../../src/modules/checkout/index.js';
import { WebhookDeliveryJob } from '../../../src/modules/events/index.js';
import { createTenant, startApp, type Tenant, type TestApp } from '../../support/harness.js';
import { WebhookReceiver } from '../../support/webhook-receiver.js';
import { expectLedgerInvariants } from '../../factories/checkout.js';
import { saveCard, SAVED_CARDS, setupCheckout } from '../../factories/payment-methods.js';
import { advanceClock, createClock, createCustomer, createPrice } from '../../factories/subscriptions.js';

const DAY = 86_400_000;
const at = (start: string, days: number) => new Date(Date.parse(start) + days * DAY).toISOString();

/**
 * Collection and dunning of subscription invoices (docs/BILLING.md, "Collection and retries"), on
 * test clocks: the first invoice of a subscription created through the API is charged off-session
 * by the collection job; a failing card is retried 1, 3 and 5 days after the first attempt (a new
 * default card is tried at the next retry); exhausted retries cancel or mark unpaid; send_invoice
 * invoices get a due date and a hosted page; a refund shows on the invoice; events arrive signed.
 */
describe('invoice collection (test mode, test clocks)', () => {
  let t: TestApp;
  let tenant: Tenant;
  let receiver: WebhookReceiver;
  let endpointSecret: string;
  let price: { id: string };
  let vat: { id: string };

  beforeAll(async () => {
    t = await startApp({ listen: true, rateLimit: false, env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
    tenant = await createTenant(t);
    receiver = await new WebhookReceiver().start();
    endpointSecret = (await post('/webhook_endpoints', { url: receiver.url, enabled_events: ['*'] })).secret;
    price = await createPrice(t, tenant, { unit_amount: 30_000 });
    vat = await post('/tax_rates', { display_name: 'VAT', percentage: 7, inclusive: false, country: 'TH' });
  });
  afterAll(async () => {
    await expectLedgerInvariants(t, [tenant.applicationId]);
    await receiver?.stop();
    await t?.close();
  });

  async function post(path: string, body: object) {
    const res = await t.http.post(tenant.path(path)).set(tenant.as('test')).send(body);
    expect({ path, status: res.status, body: res.body }).toMatchObject({ status: 200 });
    return res.body;
  }
  const get = async (path: string) => (await t.http.get(tenant.path(path)).set(tenant.as('test'))).body;
  const collect = () => t.app.get(InvoiceCollectionJob).run({ applicationIds: [tenant.applicationId] });

  /** A customer on `clockId` with `number` saved and made its default. */
  async function customerWithDefault(clockId: string, number: string) {
    const customer = await createCustomer(t, tenant, { test_clock: clockId });
    const card = await newDefaultCard(customer.id, number);
    return { customer, card };
  }

  async function newDefaultCard(customerId: string, number: string): Promise<string> {
    const saved = await saveCard(t, tenant, await setupCheckout(t, tenant, customerId), number);
    expect(saved.status).toBe(200);
    const id = saved.body.payment_method.id as string;
    await post(`/customers/${customerId}`, { invoice_settings: { default_payment_method: id } });
    return id;
  }

  /** An active subscription: created through the API, its first invoice collected from a card that succeeds. */
  async function activeSubscription(customerId: string, body: object = {}) {
    const sub = await post('/subscriptions', { customer_id: customerId, items: [{ price_id: price.id }], ...body });
    expect(await collect()).toMatchObject({ paid: 1 });
    expect((await get(`/subscriptions/${sub.id}`)).status).toBe('active');
    return sub;
  }

  /**
   * A period's invoice of the subscription, made through the internal method the period close uses
   * (a draft with subscription_id), then finalized through the API.
   */
  async function cycleInvoice(sub: { id: string; customer_id: string }) {
    const application = (await t.app.get(ApplicationsService).bySlug(tenant.slug))!;
    const draft = await t.app.get(RequestContext).runInMode(
      'test',
      () =>
        t.app.get(ModeDb).transaction((manager) =>
          t.app.get(InvoicesService).createFirstSubscriptionDraft(
            scopeOf(application, 'test', 'TH'),
            {
              customerId: sub.customer_id,
              subscriptionId: sub.id,
              currency: 'THB',
              lines: [{ description: 'Plan x 1', amount: 30_000, quantity: 1 }],
              subtotal: 30_000,
              total: 30_000,
              description: null,
              billingReason: 'subscription_cycle',
            },
            manager,
          ),
        ),
      { application },
    );
    return post(`/invoices/${draft.id}/finalize`, {});
  }

  it('collects the first invoice of a subscription created through the API: incomplete -> active, refundable', async () => {
    const start = '2026-01-01T00:00:00.000Z';
    const clock = await createClock(t, tenant, start);
    const { customer, card } = await customerWithDefault(clock.id, SAVED_CARDS.succeeds);
    const sub = await post('/subscriptions', {
      customer_id: customer.id,
      items: [{ price_id: price.id, quantity: 2 }],
      default_tax_rates: [vat.id],
    });
    expect(sub).toMatchObject({ status: 'incomplete', latest_invoice: expect.any(String) });
    // By hand, in satang: 300.00 x 2 = 600.00; VAT 7% = 42.00; total 642.00.
    const invoice = await get(`/invoices/${sub.latest_invoice}`);
    expect(invoice).toMatchObject({
      status: 'open',
      subscription: sub.id,
      billing_reason: 'subscription_create',
      collection_method: 'charge_automatically',
      next_payment_attempt: start,
      attempt_count: 0,
      subtotal: 60_000,
      total: 64_200,
      hosted_invoice_url: null,
    });

    expect(await collect()).toEqual({ paid: 1, failed: 0, skipped: 0 });
    const paid = await get(`/invoices/${invoice.id}`);
    expect(paid).toMatchObject({ status: 'paid', amount_paid: 64_200, attempt_count: 1, next_payment_attempt: null });
    const charge = await get(`/charges/${paid.charge_id}`);
    expect(charge).toMatchObject({
      status: 'succeeded',
      amount: 64_200,
      invoice: expect.anything(),
      payment_method_id: card,
    });
    expect((await get(`/subscriptions/${sub.id}`)).status).toBe('active');
    expect(await collect()).toEqual({ paid: 0, failed: 0, skipped: 0 });

    await post('/refunds', { charge_id: charge.id, amount: 10_000 });
    expect((await get(`/invoices/${invoice.id}`)).amount_refunded).toBe(10_000);
  });

  it('retries a failing card 1 and 3 days later; the new default card attached meanwhile pays: past_due -> active', async () => {
    const start = '2026-02-01T00:00:00.000Z';
    const clock = await createClock(t, tenant, start);
    const { customer } = await customerWithDefault(clock.id, SAVED_CARDS.succeeds);
    const sub = await activeSubscription(customer.id);
    await newDefaultCard(customer.id, SAVED_CARDS.declined);

    const invoice = await cycleInvoice(sub);
    expect(invoice).toMatchObject({ collection_method: 'charge_automatically', next_payment_attempt: start });
    expect(await collect()).toEqual({ paid: 0, failed: 1, skipped: 0 });
    expect(await get(`/invoices/${invoice.id}`)).toMatchObject({
      status: 'open',
      attempt_count: 1,
      next_payment_attempt: at(start, 1),
    });
    expect((await get(`/subscriptions/${sub.id}`)).status).toBe('past_due');

    await advanceClock(t, tenant, clock.id, at(start, 1));
    expect(await collect()).toEqual({ paid: 0, failed: 1, skipped: 0 });
    expect(await get(`/invoices/${invoice.id}`)).toMatchObject({
      attempt_count: 2,
      next_payment_attempt: at(start, 3),
    });

    const fresh = await newDefaultCard(customer.id, SAVED_CARDS.succeeds);
    await advanceClock(t, tenant, clock.id, at(start, 2));
    expect(await collect()).toEqual({ paid: 0, failed: 0, skipped: 0 }); // not due before day 3
    await advanceClock(t, tenant, clock.id, at(start, 3));
    expect(await collect()).toEqual({ paid: 1, failed: 0, skipped: 0 });
    const paid = await get(`/invoices/${invoice.id}`);
    expect(paid).toMatchObject({ status: 'paid', attempt_count: 3, next_payment_attempt: null, amount_paid: 30_000 });
    expect((await get(`/charges/${paid.charge_id}`)).payment_method_id).toBe(fresh);
    expect((await get(`/subscriptions/${sub.id}`)).status).toBe('active');

    // The events arrive signed: two failures, then the payment, and the subscription's moves.
    await t.app.get(WebhookDeliveryJob).deliverDue(['test'], { applicationIds: [tenant.applicationId] });
    const verifier = new Webhook(endpointSecret);
    for (const delivery of receiver.received) {
      expect(verifier.verify(delivery.body, delivery.headers as Record<string, string>)).toEqual(delivery.event);
    }
    const objects = (type: string) =>
      receiver
        .ofType(type)
        .map((r) => (r.event.data as { object: Record<string, unknown> }).object)
        .filter((o) => o.id === invoice.id || o.id === sub.id);
    expect(objects('invoice.payment_failed')).toEqual([
      expect.objectContaining({ attempt_count: 1, next_payment_attempt: at(start, 1) }),
      expect.objectContaining({ attempt_count: 2, next_payment_attempt: at(start, 3) }),
    ]);
    expect(objects('invoice.paid')).toEqual([expect.objectContaining({ id: invoice.id, attempt_count: 3 })]);
    expect(objects('customer.subscription.updated').map((o) => o.status)).toEqual(['active', 'past_due', 'active']);
  });

  it('after the last retry (day 5) cancels the subscription, or marks it unpaid when it says so', async () => {
    const start = '2026-03-01T00:00:00.000Z';
    const clock = await createClock(t, tenant, start);
    const canceling = await customerWithDefault(clock.id, SAVED_CARDS.succeeds);
    const marking = await customerWithDefault(clock.id, SAVED_CARDS.succeeds);
    const toCancel = await activeSubscription(canceling.customer.id);
    const toMark = await activeSubscription(marking.customer.id, { retries_exhausted_action: 'mark_unpaid' });
    expect(toMark.retries_exhausted_action).toBe('mark_unpaid');
    expect(toCancel.retries_exhausted_action).toBe('cancel');
    await newDefaultCard(canceling.customer.id, SAVED_CARDS.declined);
    await newDefaultCard(marking.customer.id, SAVED_CARDS.insufficient);
    const invoices = [await cycleInvoice(toCancel), await cycleInvoice(toMark)];
    expect(await collect()).toEqual({ paid: 0, failed: 2, skipped: 0 });

    // One advance past every retry: the job makes them in order, each as of its own time.
    await advanceClock(t, tenant, clock.id, at(start, 6));
    expect(await collect()).toEqual({ paid: 0, failed: 6, skipped: 0 });
    for (const invoice of invoices) {
      expect(await get(`/invoices/${invoice.id}`)).toMatchObject({
        status: 'open',
        attempt_count: 4,
        next_payment_attempt: null,
      });
    }
    expect(await get(`/subscriptions/${toCancel.id}`)).toMatchObject({
      status: 'canceled',
      ended_at: at(start, 5),
    });
    expect((await get(`/subscriptions/${toMark.id}`)).status).toBe('unpaid');
    expect(await collect()).toEqual({ paid: 0, failed: 0, skipped: 0 });
  });

  it('send_invoice: the first invoice is open with due_date after days_until_due and a hosted page (Thai and English)', async () => {
    const start = '2026-04-01T00:00:00.000Z';
    const clock = await createClock(t, tenant, start);
    const customer = await createCustomer(t, tenant, { test_clock: clock.id });
    const sub = await post('/subscriptions', {
      customer_id: customer.id,
      items: [{ price_id: price.id }],
      collection_method: 'send_invoice',
      days_until_due: 10,
      default_tax_rates: [vat.id],
    });
    expect(sub.status).toBe('active');
    const invoice = await get(`/invoices/${sub.latest_invoice}`);
    expect(invoice).toMatchObject({
      status: 'open',
      collection_method: 'send_invoice',
      due_date: at(start, 10),
      next_payment_attempt: null,
      total: 32_100,
      hosted_invoice_url: expect.stringMatching(new RegExp(`/pay/${tenant.slug}/invoices/${invoice.id}$`)),
    });
    expect(await collect()).toEqual({ paid: 0, failed: 0, skipped: 0 });
    const page = new URL(invoice.hosted_invoice_url as string);
    const en = await t.http.get(`${page.pathname}?locale=en`);
    expect(en.status).toBe(200);
    expect(en.text).toContain(invoice.number);
    expect(en.text).toContain('VAT 7');
    expect(en.text).toContain('฿321.00');
    expect(en.text).toContain('Pay this invoice');
    const th = await t.http.get(`${page.pathname}?locale=th`);
    expect(th.text).toContain('ชำระใบแจ้งหนี้นี้');
  });
});
