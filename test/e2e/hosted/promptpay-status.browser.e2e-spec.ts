import type { Browser, Page } from 'playwright-core';
import { PROMPTPAY_QR_LIFETIME_MS } from '../../../src/modules/checkout/checkout-rules.js';
import { launchBrowser } from '../../support/browser.js';
import { createTenant, startApp, type Tenant, type TestApp } from '../../support/harness.js';
import { until } from '../../support/processes.js';
import { createCheckout, createPaymentIntent, expectLedgerInvariants } from '../../factories/checkout.js';

/**
 * The hosted PromptPay page moves on by itself (issue 14 item 5): the open page polls its own
 * checkout's status with its session, so a QR code paid from elsewhere (here the test helper, in
 * another request, as the buyer's banking app would) takes the page to success_url without a
 * reload, and an expired QR code or checkout shows its expiry. Chromium, real HTTP.
 */
describe('hosted PromptPay page follows its checkout', () => {
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
  afterEach(() => t.clock.reset());

  const onTestServer = (url: string) => {
    const u = new URL(url);
    return `${t.url}${u.pathname}${u.search}${u.hash}`;
  };

  async function promptPayCheckout(locale = '') {
    const pi = await createPaymentIntent(t, tenant, { amount: 42000 });
    const checkout = await createCheckout(t, tenant, {
      target_type: 'payment_intent',
      target_id: pi.id,
      success_url: `${t.url}/healthz?paid={CHECKOUT_ID}`,
    });
    const page = await browser.newPage();
    const url = new URL(onTestServer(checkout.url));
    if (locale) url.search = `?locale=${locale}`;
    await page.goto(url.toString());
    return { pi, checkout, page };
  }

  async function showQr(page: Page, tab = 'PromptPay', button = 'Pay with PromptPay') {
    await page.getByRole('tab', { name: tab }).click();
    await page.getByRole('button', { name: button }).click();
    await page.getByRole('img', { name: /PromptPay|พร้อมเพย์/ }).waitFor();
  }

  it('paid by the test helper in another request: the open page reaches success_url without a reload', async () => {
    const { checkout, page } = await promptPayCheckout();
    await showQr(page);
    const navigations: string[] = [];
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) navigations.push(frame.url());
    });
    const paid = await t.http
      .post(tenant.path(`/test_helpers/checkouts/${checkout.id}/pay_promptpay`))
      .set(tenant.as('test'));
    expect(paid.status).toBe(200);
    const target = `${t.url}/healthz?paid=${checkout.id}`;
    await until(
      'the page to reach success_url',
      () => page.url() === target,
      () => page.url(),
    );
    // One navigation, to success_url: no reload of the checkout page before it.
    expect(navigations).toEqual([target]);
    await page.close();
    const after = await t.http.get(tenant.path(`/checkouts/${checkout.id}`)).set(tenant.as('test'));
    expect(after.body.status).toBe('complete');
  });

  it('an expired QR code shows its expiry (clock moved), in Thai too', async () => {
    const { page } = await promptPayCheckout('th');
    await showQr(page, 'พร้อมเพย์', 'ชำระด้วยพร้อมเพย์');
    t.clock.advance(PROMPTPAY_QR_LIFETIME_MS + 1000);
    const alert = page.locator('#message');
    await until('the QR expiry message', async () => (await alert.isVisible()) && (await alert.textContent()) !== '');
    expect(await alert.textContent()).toBe('คิวอาร์โค้ดนี้หมดอายุแล้ว กดชำระด้วยพร้อมเพย์เพื่อรับคิวอาร์โค้ดใหม่');
    expect(await page.locator('#promptpay-qr').isVisible()).toBe(false);
    // A new code can be asked for.
    expect(await page.getByRole('button', { name: 'ชำระด้วยพร้อมเพย์' }).isVisible()).toBe(true);
    await page.close();
  });

  it('a checkout that expires while open shows the expiry and nothing to pay', async () => {
    const { page } = await promptPayCheckout();
    await showQr(page);
    t.clock.advance(24 * 3600 * 1000 + 1000);
    const alert = page.getByRole('alert');
    await until('the checkout expiry message', async () =>
      ((await alert.textContent()) ?? '').includes('This checkout has expired'),
    );
    expect(await page.getByRole('button', { name: 'Simulate PromptPay payment (test mode)' }).isVisible()).toBe(false);
    expect(await page.locator('#promptpay-qr').isVisible()).toBe(false);
    await page.close();
  });

  it('the status endpoint answers only the page’s own session, never a key', async () => {
    const { checkout, page } = await promptPayCheckout();
    await page.close();
    const path = `/pay/${tenant.slug}/checkouts/${checkout.id}/status`;
    const own = await t.http.get(path).set('X-Session-Token', checkout.session);
    expect(own.status).toBe(200);
    expect(own.body).toEqual({ object: 'checkout_status', status: 'open', redirect_url: null, promptpay: null });
    expect(own.headers['cache-control']).toBe('no-store');
    const other = await createCheckout(t, tenant, {
      target_type: 'payment_intent',
      target_id: (await createPaymentIntent(t, tenant)).id,
    });
    expect((await t.http.get(path).set('X-Session-Token', other.session)).status).toBe(404);
    expect((await t.http.get(path)).status).toBe(404);
    expect((await t.http.get(path).set(tenant.as('test'))).status).toBe(404);
  });
});
