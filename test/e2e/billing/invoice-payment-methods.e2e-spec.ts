import { scopeOf } from '../../../src/common/context/principal.js';
import { RequestContext } from '../../../src/common/context/request-context.js';
import { ModeDb } from '../../../src/common/database/mode-db.js';
import { ApplicationsService } from '../../../src/modules/applications/index.js';
import { InvoiceCollectionJob } from '../../../src/modules/billing/collection/index.js';
import { InvoicesService } from '../../../src/modules/checkout/index.js';
import { createTenant, startApp, type Tenant, type TestApp } from '../../support/harness.js';
import { expectLedgerInvariants } from '../../factories/checkout.js';
import { saveCard, SAVED_CARDS, setupCheckout } from '../../factories/payment-methods.js';
import { createClock, createCustomer, createPrice } from '../../factories/subscriptions.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies, inspected field by field
type Row = Record<string, any>;

const THAI_TYPES = [
  'card',
  'promptpay',
  'truemoney',
  'mobile_banking_kbank',
  'mobile_banking_scb',
  'mobile_banking_bay',
  'mobile_banking_bbl',
  'mobile_banking_ktb',
];

/**
 * A subscription invoice's payment method types (docs/BILLING.md, "Payment method types of an
 * invoice"): the registry's defaults for its country and currency and the provider serving the
 * country, narrowed at finalization to what can collect its amount due; the hosted invoice page's
 * checkout offers no type that would be refused for that amount; a saved card still pays
 * charge_automatically invoices.
 */
describe('subscription invoices: payment method types from the registry', () => {
  let t: TestApp;
  let th: Tenant;
  let my: Tenant;

  beforeAll(async () => {
    t = await startApp({ rateLimit: false });
    th = await createTenant(t);
    my = await createTenant(t, { countries: ['MY'] });
  });
  afterAll(async () => {
    await expectLedgerInvariants(t, [th.applicationId, my.applicationId]);
    await t?.close();
  });

  async function post(tenant: Tenant, path: string, body: object): Promise<Row> {
    const res = await t.http.post(tenant.path(path)).set(tenant.as('test')).send(body);
    expect({ path, status: res.status, body: res.body }).toMatchObject({ status: 200 });
    return res.body;
  }
  const get = async (tenant: Tenant, path: string): Promise<Row> =>
    (await t.http.get(tenant.path(path)).set(tenant.as('test'))).body;

  /** A send_invoice subscription's first invoice (open at once), for one price of `unit_amount`. */
  async function sendInvoice(tenant: Tenant, unit_amount: number, currency: string): Promise<Row> {
    const price = await createPrice(t, tenant, { unit_amount, currency });
    const customer = await createCustomer(t, tenant);
    const sub = await post(tenant, '/subscriptions', {
      customer_id: customer.id,
      items: [{ price_id: price.id }],
      collection_method: 'send_invoice',
    });
    return get(tenant, `/invoices/${sub.latest_invoice}`);
  }

  /** "Pay this invoice" on the hosted invoice page, and the checkout it opened. */
  async function payOnHostedPage(tenant: Tenant, invoice: Row): Promise<Row> {
    const page = await t.http.get(`${new URL(invoice.hosted_invoice_url as string).pathname}/pay`);
    expect(page.status).toBe(200);
    const list = await get(tenant, `/checkouts?filter[target_id]=${invoice.id}`);
    expect(list.data).toHaveLength(1);
    return list.data[0];
  }

  it('a Thai THB invoice offers card, PromptPay, TrueMoney and mobile banking, and so does its hosted checkout', async () => {
    const invoice = await sendInvoice(th, 30_000, 'THB');
    expect(invoice).toMatchObject({ status: 'open', total: 30_000, payment_method_types: THAI_TYPES });
    expect((await payOnHostedPage(th, invoice)).payment_method_types).toEqual(THAI_TYPES);
  });

  it('a Thai invoice of 15 THB keeps card only: PromptPay, TrueMoney and mobile banking start at 20 THB', async () => {
    const invoice = await sendInvoice(th, 1_500, 'THB');
    expect(invoice).toMatchObject({ status: 'open', total: 1_500, payment_method_types: ['card'] });
    expect((await payOnHostedPage(th, invoice)).payment_method_types).toEqual(['card']);
  });

  it('a Malaysian MYR invoice offers card, FPX and GrabPay; above GrabPay’s RM 1,500 card and FPX', async () => {
    const invoice = await sendInvoice(my, 10_000, 'MYR');
    expect(invoice.payment_method_types).toEqual(['card', 'fpx', 'grabpay']);
    expect((await payOnHostedPage(my, invoice)).payment_method_types).toEqual(['card', 'fpx', 'grabpay']);

    const large = await sendInvoice(my, 200_000, 'MYR');
    expect(large.payment_method_types).toEqual(['card', 'fpx']);
    expect((await payOnHostedPage(my, large)).payment_method_types).toEqual(['card', 'fpx']);
  });

  it('a draft carries every type of its country and currency; finalizing narrows them to the amount due', async () => {
    const application = (await t.app.get(ApplicationsService).bySlug(th.slug))!;
    const customer = await createCustomer(t, th);
    const sub = await post(th, '/subscriptions', {
      customer_id: customer.id,
      items: [{ price_id: (await createPrice(t, th)).id }],
      collection_method: 'send_invoice',
    });
    const draftOf = (total: number) =>
      t.app.get(RequestContext).runInMode(
        'test',
        () =>
          t.app.get(ModeDb).transaction((manager) =>
            t.app.get(InvoicesService).createFirstSubscriptionDraft(
              scopeOf(application, 'test', 'TH'),
              {
                customerId: customer.id,
                subscriptionId: sub.id,
                currency: 'THB',
                lines: [{ description: 'Usage', amount: total, quantity: 1 }],
                subtotal: total,
                total,
                description: null,
                billingReason: 'subscription_cycle',
              },
              manager,
            ),
          ),
        { application },
      );

    const small = await draftOf(1_000);
    expect(await get(th, `/invoices/${small.id}`)).toMatchObject({ status: 'draft', payment_method_types: THAI_TYPES });
    expect(await post(th, `/invoices/${small.id}/finalize`, {})).toMatchObject({
      status: 'open',
      payment_method_types: ['card'],
    });
    // TrueMoney collects up to 50,000 THB: an invoice of 60,000 THB leaves it out, PromptPay and mobile banking stay.
    const large = await draftOf(6_000_000);
    const finalized = await post(th, `/invoices/${large.id}/finalize`, {});
    expect(finalized.payment_method_types).toEqual(THAI_TYPES.filter((type) => type !== 'truemoney'));
    const event = (await get(th, `/events?filter[type]=invoice.finalized&limit=100`)).data.find(
      (e: Row) => e.data.object.id === large.id,
    );
    expect(event.data.object.payment_method_types).toEqual(finalized.payment_method_types);
  });

  it('charge_automatically: the first invoice lists the Thai types and is collected from the saved card', async () => {
    const clock = await createClock(t, th, '2026-03-01T00:00:00.000Z');
    const customer = await createCustomer(t, th, { test_clock: clock.id });
    const saved = await saveCard(t, th, await setupCheckout(t, th, customer.id), SAVED_CARDS.succeeds);
    expect(saved.status).toBe(200);
    await post(th, `/customers/${customer.id}`, {
      invoice_settings: { default_payment_method: saved.body.payment_method.id },
    });
    const sub = await post(th, '/subscriptions', {
      customer_id: customer.id,
      items: [{ price_id: (await createPrice(t, th)).id }],
    });
    expect(await get(th, `/invoices/${sub.latest_invoice}`)).toMatchObject({
      collection_method: 'charge_automatically',
      payment_method_types: THAI_TYPES,
    });
    expect(await t.app.get(InvoiceCollectionJob).run({ applicationIds: [th.applicationId] })).toMatchObject({
      paid: 1,
    });
    const paid = await get(th, `/invoices/${sub.latest_invoice}`);
    expect(paid).toMatchObject({ status: 'paid', amount_paid: 30_000 });
    expect(await get(th, `/charges/${paid.charge_id}`)).toMatchObject({
      payment_method_id: saved.body.payment_method.id,
    });
    expect((await get(th, `/subscriptions/${sub.id}`)).status).toBe('active');
  });
});
