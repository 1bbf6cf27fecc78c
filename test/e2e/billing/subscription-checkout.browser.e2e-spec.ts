// CI: both databases (issue #34 asks for the subscription checkout in Chromium on both).
import type { Browser, Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { WebhookDeliveryJob } from '../../../src/modules/events/index.js';
import { launchBrowser } from '../../support/browser.js';
import { createTenant, startApp, type Tenant, type TestApp } from '../../support/harness.js';
import { WebhookReceiver } from '../../support/webhook-receiver.js';
import { CARDS, expectLedgerInvariants } from '../../factories/checkout.js';
import { createCustomer, createPrice } from '../../factories/subscriptions.js';

/**
 * Issue #34's Done-when line in Debian's Chromium (docs/BILLING.md, "Subscription checkout"): a
 * licensed monthly price x 2, Thai VAT 7% exclusive as the default tax rate and a 10% promotion
 * code; the buyer pays the first invoice on the hosted page; the subscription is active, the card
 * the default, the invoice total exact to the satang, and the events arrive signed.
 */
describe('subscription checkout on the hosted page in a real browser', () => {
  let t: TestApp;
  let browser: Browser;
  let tenant: Tenant;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    // The receiver is on loopback: this service is the developer's, which allows private targets.
    t = await startApp({ listen: true, rateLimit: false, env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
    browser = await launchBrowser();
    tenant = await createTenant(t);
    receiver = await new WebhookReceiver().start();
  });
  afterAll(async () => {
    await expectLedgerInvariants(t, [tenant.applicationId]);
    await receiver?.stop();
    await browser?.close();
    await t?.close();
  });

  const post = async (path: string, body: object) => {
    const res = await t.http.post(tenant.path(path)).set(tenant.as('test')).send(body);
    expect({ path, status: res.status, body: res.body }).toMatchObject({ status: 200 });
    return res.body;
  };
  const get = async (path: string) => (await t.http.get(tenant.path(path)).set(tenant.as('test'))).body;

  async function fillCard(page: Page, number: string) {
    await page.getByLabel('Card number').fill(number);
    await page.getByLabel('Expiry').fill('12/34');
    await page.getByLabel('CVC').fill('123');
  }

  it('pays the first invoice by card: active, the card the default, the total exact, the events signed', async () => {
    const endpoint = await post('/webhook_endpoints', { url: receiver.url, enabled_events: ['*'] });
    const price = await createPrice(t, tenant, { unit_amount: 29_900, interval: 'month', usage_type: 'licensed' });
    const vat = await post('/tax_rates', { display_name: 'VAT', percentage: 7, inclusive: false, country: 'TH' });
    const coupon = await post('/coupons', { percent_off: 10, duration: 'forever' });
    const code = `WELCOME${Date.now()}`;
    await post('/promotion_codes', { coupon_id: coupon.id, code });
    const customer = await createCustomer(t, tenant);

    const checkout = await post('/checkouts', {
      mode: 'subscription',
      target_type: 'customer',
      target_id: customer.id,
      line_items: [{ price: price.id, quantity: 2 }],
      promotion_code: code,
      subscription_data: {
        default_tax_rates: [vat.id],
        description: 'Pro plan, monthly',
        payment_settings: { save_default_payment_method: 'on_subscription' },
      },
      success_url: `${t.url}/healthz?subscribed={CHECKOUT_ID}`,
    });

    // By hand, in satang: 299.00 x 2 = 598.00; less 10% = 538.20; VAT 7% of 538.20 = 37.674,
    // half-up to 37.67; total 575.87.
    const expected = { subtotal: 59_800, discount: 5_980, tax: 3_767, total: 57_587 };
    expect(expected.subtotal - expected.discount + expected.tax).toBe(expected.total);
    expect(checkout).toMatchObject({ amount: expected.total, currency: 'THB', scaling_factor: 100 });

    const url = new URL(checkout.url);
    const page = await browser.newPage();
    await page.goto(`${t.url}${url.pathname}${url.hash}`);
    expect(await page.locator('#amount').textContent()).toBe('฿575.87');
    await fillCard(page, CARDS.visa);
    await Promise.all([
      page.waitForURL(`${t.url}/healthz?subscribed=${checkout.id}`),
      page.getByRole('button', { name: 'Pay', exact: true }).click(),
    ]);
    await page.close();

    const after = await get(`/checkouts/${checkout.id}`);
    expect(after).toMatchObject({
      status: 'complete',
      payment_status: 'paid',
      target_type: 'customer',
      target_id: customer.id,
      subscription: checkout.subscription,
      invoice: checkout.invoice,
    });
    const invoice = await get(`/invoices/${checkout.invoice}`);
    expect(invoice).toMatchObject({
      status: 'paid',
      subtotal: expected.subtotal,
      total: expected.total,
      amount_paid: expected.total,
      amount_remaining: 0,
    });
    expect(invoice.line_items.map((l: { total: number }) => l.total)).toEqual([
      expected.subtotal,
      -expected.discount,
      expected.tax,
    ]);
    const [saved] = (await get(`/customers/${customer.id}/payment_methods`)).data;
    expect(saved).toMatchObject({ status: 'attached', last4: '4242' });
    const subscription = await get(`/subscriptions/${checkout.subscription}`);
    expect(subscription).toMatchObject({
      status: 'active',
      customer_id: customer.id,
      default_payment_method: saved.id,
      default_tax_rates: [vat.id],
      latest_invoice: checkout.invoice,
    });
    expect((await get(`/customers/${customer.id}`)).invoice_settings.default_payment_method).toBe(saved.id);

    await t.app.get(WebhookDeliveryJob).deliverDue(['test'], { applicationIds: [tenant.applicationId] });
    const verifier = new Webhook(endpoint.secret);
    for (const delivery of receiver.received) {
      expect(verifier.verify(delivery.body, delivery.headers as Record<string, string>)).toEqual(delivery.event);
    }
    const objectOf = (type: string) =>
      receiver.ofType(type).map((r) => (r.event.data as { object: { id: string } }).object);
    expect(objectOf('checkout.completed')).toEqual([expect.objectContaining({ id: checkout.id })]);
    expect(objectOf('invoice.paid')).toEqual([expect.objectContaining({ id: checkout.invoice, total: 57_587 })]);
    expect(objectOf('customer.subscription.created')).toEqual([
      expect.objectContaining({ id: checkout.subscription, status: 'incomplete' }),
    ]);
    expect(objectOf('customer.subscription.updated')).toEqual([
      expect.objectContaining({ id: checkout.subscription, status: 'active', default_payment_method: saved.id }),
    ]);
    expect(objectOf('payment_method.attached')).toEqual([expect.objectContaining({ id: saved.id })]);
  });

  it('takes a promotion code typed on the page: the total shown, then charged, is exact to the satang', async () => {
    const price = await createPrice(t, tenant, { unit_amount: 29_900, interval: 'month', usage_type: 'licensed' });
    const vat = await post('/tax_rates', { display_name: 'VAT', percentage: 7, inclusive: false, country: 'TH' });
    const coupon = await post('/coupons', { percent_off: 10, duration: 'forever' });
    const code = `TYPED${Date.now()}`;
    await post('/promotion_codes', { coupon_id: coupon.id, code });
    const customer = await createCustomer(t, tenant);
    const checkout = await post('/checkouts', {
      mode: 'subscription',
      target_type: 'customer',
      target_id: customer.id,
      line_items: [{ price: price.id, quantity: 2 }],
      allow_promotion_codes: true,
      subscription_data: { default_tax_rates: [vat.id] },
      success_url: `${t.url}/healthz?typed={CHECKOUT_ID}`,
    });

    const url = new URL(checkout.url);
    const page = await browser.newPage();
    await page.goto(`${t.url}${url.pathname}${url.hash}`);
    // 598.00 + VAT 7% 41.86 before the code.
    expect(await page.locator('#amount').textContent()).toBe('฿639.86');
    await page.getByLabel('Promotion code').fill('no-such-code');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('No promotion code "no-such-code".').waitFor();
    await page.getByLabel('Promotion code').fill(code.toLowerCase());
    await page.getByRole('button', { name: 'Apply' }).click();
    // 598.00 - 10% = 538.20; VAT 7% of 538.20 = 37.674, half-up 37.67; total 575.87.
    await page.getByText(`Promotion code ${code.toLowerCase()} applied: ฿59.80 off.`).waitFor();
    expect(await page.locator('#amount').textContent()).toBe('฿575.87');
    await fillCard(page, CARDS.visa);
    await Promise.all([
      page.waitForURL(`${t.url}/healthz?typed=${checkout.id}`),
      page.getByRole('button', { name: 'Pay', exact: true }).click(),
    ]);
    await page.close();

    const after = await get(`/checkouts/${checkout.id}`);
    expect(after).toMatchObject({ status: 'complete', payment_status: 'paid', amount: 57_587 });
    const charge = await get(`/charges/${after.charge_id}`);
    expect(charge).toMatchObject({ status: 'succeeded', amount: 57_587 });
    expect(await get(`/invoices/${checkout.invoice}`)).toMatchObject({
      status: 'paid',
      total: 57_587,
      amount_paid: 57_587,
    });
    expect(await get(`/subscriptions/${checkout.subscription}`)).toMatchObject({ status: 'active' });
  });
});
