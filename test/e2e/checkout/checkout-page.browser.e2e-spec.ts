import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page, Request } from 'playwright-core';
import { launchBrowser, sentHeaders } from '../../support/browser.js';
import { createTenant, startApp, type Tenant, type TestApp } from '../../support/harness.js';
import {
  CARDS,
  createCheckout,
  createCustomer,
  createOpenInvoice,
  createPaymentIntent,
  paymentIntentCheckout,
  expectLedgerInvariants,
} from '../../factories/checkout.js';

/**
 * A limit against hangs, not a speed check: a browser test of several page loads has taken over
 * 120 s (Jest's default here) when the machine's load average was above 20.
 */
const BROWSER_TEST_LIMIT_MS = 300_000;

/**
 * The hosted checkout page in Debian's Chromium: the buyer opens the checkout `url` (session in
 * the fragment), pays, and lands on success_url; the API then shows what happened.
 */
describe('hosted checkout page in a real browser', () => {
  let t: TestApp;
  let browser: Browser;
  let tenant: Tenant;

  beforeAll(async () => {
    t = await startApp({ listen: true });
    browser = await launchBrowser();
    tenant = await createTenant(t);
  });
  afterAll(async () => {
    await expectLedgerInvariants(t, [tenant.applicationId]);
    await browser?.close();
    await t?.close();
  });

  const get = (path: string) => t.http.get(tenant.path(path)).set(tenant.as('test'));
  /** The checkout url is on PUBLIC_URL; the test server listens on its own port. */
  const onTestServer = (url: string) => {
    const u = new URL(url);
    return `${t.url}${u.pathname}${u.hash}`;
  };
  const successUrl = () => `${t.url}/healthz?checkout={CHECKOUT_ID}`;

  async function fillCard(page: Page, number: string) {
    await page.getByLabel('Card number').fill(number);
    await page.getByLabel('Expiry').fill('12/34');
    await page.getByLabel('CVC').fill('123');
  }

  it(
    'pays an invoice with 4242 and lands on success_url; the API shows checkout, charge, invoice and ledger',
    async () => {
      const invoice = await createOpenInvoice(t, tenant);
      const checkout = await createCheckout(t, tenant, {
        target_type: 'invoice',
        target_id: invoice.id,
        success_url: successUrl(),
        cancel_url: `${t.url}/healthz?canceled=1`,
      });
      const page = await browser.newPage();
      await page.goto(onTestServer(checkout.url));
      expect(page.url()).not.toContain('session=');
      expect(await page.locator('#amount').textContent()).toBe('฿950.00');
      expect(await page.locator('h1').textContent()).toContain('Pay ');
      expect(await page.getByRole('link', { name: /Cancel/ }).getAttribute('href')).toBe(`${t.url}/healthz?canceled=1`);
      await fillCard(page, CARDS.visa);
      await Promise.all([
        page.waitForURL(`${t.url}/healthz?checkout=${checkout.id}`),
        page.getByRole('button', { name: 'Pay', exact: true }).click(),
      ]);
      await page.close();

      const after = (await get(`/checkouts/${checkout.id}`)).body;
      expect(after).toMatchObject({ status: 'complete', payment_status: 'paid' });
      const charge = (await get(`/charges/${after.charge_id}`)).body;
      expect(charge).toMatchObject({
        status: 'succeeded',
        paid: true,
        amount: 95000,
        payment_method: { last4: '4242' },
        invoice: { id: invoice.id, status: 'paid' },
      });
      expect((await get(`/invoices/${invoice.id}`)).body.status).toBe('paid');
      const entries = await get(`/balance_transactions?q=${encodeURIComponent(`Charge ${charge.id}`)}`);
      expect(entries.body.data.map((e: { account: string }) => e.account).sort()).toEqual([
        'fees',
        'merchant',
        'provider_clearing',
      ]);
      const merchant = entries.body.data.find((e: { account: string }) => e.account === 'merchant');
      expect(merchant).toMatchObject({ state: 'hold', gross_amount: 95000, fee: charge.provider_fee_amount });
      expect(merchant.net).toBe(95000 - charge.provider_fee_amount);
      expect(merchant.fee_details).toEqual([
        { type: 'provider_fee', amount: charge.provider_fee_amount, currency: 'THB', application: null },
      ]);

      const reopened = await browser.newPage();
      await reopened.goto(onTestServer(checkout.url));
      expect(await reopened.getByRole('status').textContent()).toContain('has been paid');
      expect(await reopened.getByRole('button', { name: 'Pay', exact: true }).count()).toBe(0);
      await reopened.close();
    },
    BROWSER_TEST_LIMIT_MS,
  );

  it(
    'sends the card number only to the vault: no request to the payment API and no log line carries it',
    async () => {
      const pan = CARDS.visa.replace(/\D/g, '');
      /** The number as typed, whole, or in any grouping of its digits by spaces or dashes. */
      const carriesPan = (text: string | null | undefined) =>
        typeof text === 'string' && text.replace(/[\s-]|%20|\+/g, '').includes(pan);
      const pi = await createPaymentIntent(t, tenant, { customer_id: (await createCustomer(t, tenant)).id });
      const checkout = await createCheckout(t, tenant, {
        target_type: 'payment_intent',
        target_id: pi.id,
        success_url: successUrl(),
      });
      const page = await browser.newPage();
      const requests: Request[] = [];
      page.on('request', (request) => requests.push(request));
      await page.goto(onTestServer(checkout.url));
      await fillCard(page, CARDS.visa);
      await Promise.all([
        page.waitForURL(`${t.url}/healthz?checkout=${checkout.id}`),
        page.getByRole('button', { name: 'Pay', exact: true }).click(),
      ]);

      const seen = await Promise.all(
        requests.map(async (request) => ({
          method: request.method(),
          url: request.url(),
          headers: JSON.stringify(await sentHeaders(request)),
          body: request.postData(),
        })),
      );
      await page.close();
      const vault = `${t.url}/api/v1/${tenant.slug}/vault/tokens`;
      const api = `${t.url}${tenant.path('')}`;
      // The page made its calls: the vault once, then the payment API with the token.
      const toVault = seen.filter((r) => r.url === vault);
      expect(toVault.map((r) => r.method)).toEqual(['POST']);
      expect(carriesPan(toVault[0].body)).toBe(true);
      const token = JSON.parse(toVault[0].body ?? '{}');
      expect(Object.keys(token)).toEqual(['card']);
      const toApi = seen.filter((r) => r.url.startsWith(api));
      expect(toApi.map((r) => `${r.method} ${r.url.slice(api.length)}`)).toEqual([
        `POST /checkouts/${checkout.id}/confirm`,
      ]);
      expect(JSON.parse(toApi[0].body ?? '{}')).toEqual({
        payment_method_type: 'card',
        token: expect.stringMatching(/^tok_[0-9a-f]{32}$/),
      });
      // Every request the page made but the vault call: no PAN in its URL, headers or body.
      const carrying = seen.filter((r) => r.url !== vault && [r.url, r.headers, r.body].some(carriesPan));
      expect(carrying).toEqual([]);
      expect(seen.length).toBeGreaterThanOrEqual(3); // the page, the vault, the payment (then success_url)

      const charge = (await get(`/charges?filter[payment_intent]=${pi.id}`)).body.data[0];
      expect(charge).toMatchObject({ status: 'succeeded', payment_method: { card: { brand: 'visa', last4: '4242' } } });
      expect(JSON.stringify(charge)).not.toContain(pan);

      // The service's logs (this run's log directory: every app the run started writes there).
      const dir = process.env.WALLET_TEST_LOG_DIR;
      expect(dir).toBeTruthy();
      const logs = readdirSync(dir!).filter((name) => name.startsWith('app-'));
      expect(logs.length).toBeGreaterThan(0);
      const text = logs.map((name) => readFileSync(join(dir!, name), 'utf8')).join('\n');
      expect(text).toContain(`/api/v1/${tenant.slug}/vault/tokens`); // the vault call was logged: without its body
      expect(carriesPan(text)).toBe(false);
    },
    BROWSER_TEST_LIMIT_MS,
  );

  it(
    'shows the decline of 4000…0002 on the page and leaves a failed charge',
    async () => {
      const pi = await createPaymentIntent(t, tenant, { customer_id: (await createCustomer(t, tenant)).id });
      const checkout = await createCheckout(t, tenant, {
        target_type: 'payment_intent',
        target_id: pi.id,
        success_url: successUrl(),
      });
      const page = await browser.newPage();
      await page.goto(onTestServer(checkout.url));
      await fillCard(page, CARDS.declined);
      await page.getByRole('button', { name: 'Pay', exact: true }).click();
      const alert = page.getByRole('alert');
      await alert.waitFor();
      expect(await alert.textContent()).toBe('Your card was declined.');
      expect(page.url()).toBe(`${t.url}${new URL(checkout.url).pathname}`);

      await page.getByLabel('Card number').fill(CARDS.invalid);
      await page.getByRole('button', { name: 'Pay', exact: true }).click();
      await page.getByText('card.number is not a valid card number.').waitFor();
      await page.close();

      const charges = (await get(`/charges?filter[payment_intent]=${pi.id}`)).body;
      expect(charges.total_items).toBe(1);
      expect(charges.data[0]).toMatchObject({
        status: 'failed',
        failure_code: 'card_declined',
        failure_message: 'Your card was declined.',
      });
      expect((await get(`/checkouts/${checkout.id}`)).body.status).toBe('open');
      expect((await get(`/payment_intents/${pi.id}`)).body.status).toBe('requires_payment_method');
    },
    BROWSER_TEST_LIMIT_MS,
  );

  it(
    'pays with PromptPay: shows the QR code, the test-mode payment completes the checkout',
    async () => {
      const pi = await createPaymentIntent(t, tenant, { amount: 35000 });
      const checkout = await createCheckout(t, tenant, {
        target_type: 'payment_intent',
        target_id: pi.id,
        success_url: successUrl(),
      });
      const page = await browser.newPage();
      await page.goto(onTestServer(checkout.url));
      // One payment method at a time: the card form until the PromptPay tab is chosen.
      expect(await page.getByRole('button', { name: 'Pay with PromptPay' }).count()).toBe(0);
      await page.getByRole('tab', { name: 'PromptPay' }).click();
      expect(await page.getByLabel('Card number').isVisible()).toBe(false);
      await page.getByRole('button', { name: 'Pay with PromptPay' }).click();
      const qr = page.getByRole('img', { name: /PromptPay QR code/ });
      await qr.waitFor();
      expect(await qr.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
      const width = await qr.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth);
      expect(width).toBeGreaterThan(100);
      // The QR carries the EMVCo payload; the page shows the Thai QR Payment frame, never the payload text.
      const pending = (await get(`/charges?filter[payment_intent]=${pi.id}`)).body.data[0];
      const payload: string = pending.promptpay.raw;
      expect(payload.startsWith('000201')).toBe(true);
      for (const field of ['5303764', '5406350.00', '5802TH']) expect(payload).toContain(field);
      const frame = page.locator('.thaiqr');
      expect(await frame.innerText()).toMatch(/THAI QR PAYMENT[\s\S]*฿350\.00/);
      expect(await page.locator('body').innerText()).not.toContain('000201');
      expect(await page.content()).not.toContain(payload);
      await Promise.all([
        page.waitForURL(`${t.url}/healthz?checkout=${checkout.id}`),
        page.getByRole('button', { name: 'Simulate PromptPay payment (test mode)' }).click(),
      ]);
      await page.close();
      expect((await get(`/checkouts/${checkout.id}`)).body.status).toBe('complete');
      const charges = (await get(`/charges?filter[payment_intent]=${pi.id}`)).body;
      expect(charges.data[0]).toMatchObject({ status: 'succeeded', payment_method: { type: 'promptpay' } });
      expect((await get(`/payment_intents/${pi.id}`)).body.status).toBe('succeeded');
    },
    BROWSER_TEST_LIMIT_MS,
  );

  it(
    'shows an expired checkout as expired, with nothing to pay',
    async () => {
      const { checkout } = await paymentIntentCheckout(t, tenant);
      t.clock.advance(24 * 3600 * 1000 + 1000);
      try {
        const page = await browser.newPage();
        await page.goto(onTestServer(checkout.url));
        expect(await page.getByRole('alert').textContent()).toContain('has expired');
        expect(await page.getByRole('button').count()).toBe(0);
        await page.close();
      } finally {
        t.clock.reset();
      }
    },
    BROWSER_TEST_LIMIT_MS,
  );
});
