// CI: both databases (issue #35 asks for the hosted invoice page paid by PromptPay in Chromium on both).
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../../support/browser.js';
import { createTenant, startApp, type Tenant, type TestApp } from '../../support/harness.js';
import { expectLedgerInvariants } from '../../factories/checkout.js';
import { createClock, createCustomer, createPrice } from '../../factories/subscriptions.js';

const BROWSER_TEST_LIMIT_MS = 300_000;

/**
 * Issue #35's send_invoice line in Debian's Chromium (docs/BILLING.md, "Collection and retries"):
 * a subscription's invoice is opened from its hosted_invoice_url (lines and tax shown), "Pay" opens a
 * checkout on the invoice, the customer pays by PromptPay, and comes back to the invoice page, paid.
 */
describe('the hosted invoice page in a real browser', () => {
  let t: TestApp;
  let browser: Browser;
  let tenant: Tenant;

  beforeAll(async () => {
    t = await startApp({ listen: true, rateLimit: false });
    browser = await launchBrowser();
    tenant = await createTenant(t, { name: 'Siam Coffee' });
  });
  afterAll(async () => {
    await expectLedgerInvariants(t, [tenant.applicationId]);
    await browser?.close();
    await t?.close();
  });

  const post = async (path: string, body: object) => {
    const res = await t.http.post(tenant.path(path)).set(tenant.as('test')).send(body);
    expect({ path, status: res.status, body: res.body }).toMatchObject({ status: 200 });
    return res.body;
  };
  const get = async (path: string) => (await t.http.get(tenant.path(path)).set(tenant.as('test'))).body;

  it(
    'shows the lines and tax, and is paid by PromptPay through a checkout on the invoice',
    async () => {
      const price = await createPrice(t, tenant, { unit_amount: 29_900 });
      const vat = await post('/tax_rates', { display_name: 'VAT', percentage: 7, inclusive: false, country: 'TH' });
      const clock = await createClock(t, tenant, '2026-05-01T00:00:00.000Z');
      const customer = await createCustomer(t, tenant, { test_clock: clock.id });
      const sub = await post('/subscriptions', {
        customer_id: customer.id,
        items: [{ price_id: price.id, quantity: 2 }],
        collection_method: 'send_invoice',
        default_tax_rates: [vat.id],
      });
      // By hand, in satang: 299.00 x 2 = 598.00; VAT 7% = 41.86; total 639.86.
      const invoice = await get(`/invoices/${sub.latest_invoice}`);
      expect(invoice).toMatchObject({ total: 63_986, due_date: '2026-05-31T00:00:00.000Z', status: 'open' });

      const page = await browser.newPage();
      const url = new URL(invoice.hosted_invoice_url as string);
      await page.goto(`${t.url}${url.pathname}?locale=en`);
      expect(await page.locator('#amount').textContent()).toBe('฿639.86');
      const rows = await page.getByRole('table', { name: 'Invoice lines' }).locator('tbody tr').allInnerTexts();
      expect(rows.map((r) => r.replace(/\s+/g, ' ').trim())).toEqual([
        expect.stringMatching(/x 2 1 ฿598\.00$/),
        'VAT 7.0000% 1 ฿41.86',
      ]);
      await page.getByRole('link', { name: 'Pay this invoice' }).click();
      await page.getByRole('tab', { name: 'PromptPay' }).click();
      await page.getByRole('button', { name: 'Pay with PromptPay' }).click();
      await page.getByRole('img', { name: /PromptPay QR code/ }).waitFor();
      // Paid, the checkout sends the browser back to the invoice page (on PUBLIC_URL, not this test server's port).
      await Promise.all([
        page.waitForRequest((req) => new URL(req.url()).pathname === url.pathname),
        page.getByRole('button', { name: 'Simulate PromptPay payment (test mode)' }).click(),
      ]);
      await page.close();
      // A fresh page of this test server: the redirect's own navigation fails on PUBLIC_URL's port.
      const back = await browser.newPage();
      await back.goto(`${t.url}${url.pathname}?locale=en`);
      await back.getByRole('status').filter({ hasText: 'This invoice is paid.' }).waitFor();
      await back.close();

      const paid = await get(`/invoices/${invoice.id}`);
      expect(paid).toMatchObject({ status: 'paid', amount_paid: 63_986 });
      expect((await get(`/charges/${paid.charge_id}`)).payment_method).toMatchObject({ type: 'promptpay' });
      expect((await get(`/subscriptions/${sub.id}`)).status).toBe('active');
    },
    BROWSER_TEST_LIMIT_MS,
  );
});
