import { mkdirSync } from 'node:fs';
import type { Browser, Page, Request } from 'playwright-core';
import { seriousAxeViolations } from '../../support/axe.js';
import { launchBrowser, publicUrlContext, saveScreenshots } from '../../support/browser.js';
import { createTenant, startApp, type Tenant, type TestApp } from '../../support/harness.js';
import { createCheckout, createPaymentIntent } from '../../factories/checkout.js';

/**
 * Issue 40's hosted page flows in one browser, in test mode (the sandbox): the "Apps & banking"
 * tab listing each method with the apps or banks it pays with, in Thai and English; a redirect
 * flow (TrueMoney) through the sandbox's payment page and the return route to success_url; a
 * mobile banking app on a phone (the page tells the provider the platform, for the app's deep
 * link) declined, and each of the five paid; card installments with a term. With HOSTED_SCREENSHOTS=<dir> it saves each step.
 */
const SHOTS = process.env.HOSTED_SCREENSHOTS;
const MERCHANT = 'Baan Somchai Coffee';
const ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36';

describe('hosted page: TrueMoney, mobile banking and installments (Chromium, test mode)', () => {
  let t: TestApp;
  let browser: Browser;
  let tenant: Tenant;

  beforeAll(async () => {
    t = await startApp({ listen: true, rateLimit: false });
    browser = await launchBrowser();
    tenant = await createTenant(t, { name: MERCHANT });
    if (SHOTS) mkdirSync(SHOTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  /** A phone-sized context with PUBLIC_URL on this server (test/support/browser.ts). */
  const context = (locale: string, userAgent?: string) => publicUrlContext(browser, t.url, { locale, userAgent });

  const shoot = (page: Page, name: string) => saveScreenshots(page, SHOTS, name);

  /** A checkout (success_url on this server, so the browser lands somewhere real) for `amount` THB satang. */
  async function checkoutFor(amount: number, types?: string[]) {
    const pi = await createPaymentIntent(t, tenant, {
      amount,
      description: 'Latte x 10',
      ...(types ? { payment_method_types: types } : {}),
    });
    const checkout = await createCheckout(t, tenant, {
      target_type: 'payment_intent',
      target_id: pi.id,
      success_url: `${t.url}/healthz?paid={CHECKOUT_ID}`,
    });
    return { pi, checkout };
  }

  const charges = async (piId: string) =>
    (await t.http.get(tenant.path(`/charges?filter[payment_intent]=${piId}`)).set(tenant.as('test'))).body.data;

  it('[th, en] lists TrueMoney and the five mobile banking apps with the apps they pay with; accessible', async () => {
    const { checkout } = await checkoutFor(125_000);
    for (const [locale, tab, group, kplus] of [
      ['th-TH', 'แอปและธนาคาร', 'โมบายแบงก์กิ้ง', 'ชำระด้วย เค พลัส (กสิกรไทย)'],
      ['en-US', 'Apps & banking', 'Mobile banking', 'Pay with K PLUS'],
    ] as const) {
      const ctx = await context(locale);
      const page = await ctx.newPage();
      await page.goto(checkout.url);
      await page.getByRole('tab', { name: tab }).click();
      expect(await page.getByRole('heading', { name: group }).isVisible()).toBe(true);
      expect(await page.getByRole('button', { name: kplus }).isVisible()).toBe(true);
      expect(await page.locator('button.pay-method').count()).toBe(6);
      expect(await page.locator('#apps-truemoney').textContent()).toContain('TrueMoney Wallet');
      expect(await page.locator('#apps-mobile_banking_scb').textContent()).toContain('SCB Easy');
      expect(await seriousAxeViolations(page)).toEqual([]);
      await shoot(page, `checkout-apps-${locale.slice(0, 2)}`);
      await ctx.close();
    }
  });

  it('TrueMoney: redirect to the payment page, authorize, back through the return route to success_url', async () => {
    const { pi, checkout } = await checkoutFor(125_000);
    const ctx = await context('en-US');
    const page = await ctx.newPage();
    await page.goto(checkout.url);
    await page.getByRole('tab', { name: 'Apps & banking' }).click();
    await page.getByRole('button', { name: 'Pay with TrueMoney' }).click();
    await page.waitForURL(/\/provider_returns\/sandbox\/[0-9a-f-]+\/authorize$/);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Pay with TrueMoney');
    expect(await page.locator('#amount').textContent()).toBe('฿1,250.00');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shoot(page, 'sandbox-payment-en');
    await page.getByRole('button', { name: 'Authorize payment' }).click();
    await page.waitForURL(`${t.url}/healthz?paid=${checkout.id}`);
    const [charge] = await charges(pi.id);
    expect(charge).toMatchObject({ status: 'succeeded', payment_method: { type: 'truemoney' } });
    await ctx.close();
  });

  it('mobile banking on a phone: the page sends the platform; a declined payment comes back to the page to try again', async () => {
    const { pi, checkout } = await checkoutFor(99_900);
    const ctx = await context('th-TH', ANDROID);
    const page = await ctx.newPage();
    const confirms: Request[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith(`/checkouts/${checkout.id}/confirm`)) confirms.push(r);
    });
    await page.goto(checkout.url);
    await page.getByRole('tab', { name: 'แอปและธนาคาร' }).click();
    await page.getByRole('button', { name: 'ชำระด้วย SCB Easy (ไทยพาณิชย์)' }).click();
    await page.waitForURL(/\/authorize$/);
    expect(confirms.map((r) => r.postDataJSON())).toEqual([
      { payment_method_type: 'mobile_banking_scb', platform: 'android' },
    ]);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('ชำระเงินด้วย SCB Easy (ไทยพาณิชย์)');
    await shoot(page, 'sandbox-payment-th');
    await page.getByRole('button', { name: 'ปฏิเสธการชำระเงิน' }).click();
    // Declined: the return route shows the checkout again with the reason.
    await page.waitForURL(/\/provider_returns\/sandbox\/[0-9a-f-]+$/);
    await page.getByRole('alert').filter({ hasText: 'The buyer did not complete the payment.' }).waitFor();
    const [charge] = await charges(pi.id);
    expect(charge).toMatchObject({ status: 'failed', payment_method: { type: 'mobile_banking_scb' } });
    await ctx.close();
  });

  it('mobile banking: each of the five apps is paid on its payment page and comes back to success_url (one page for all)', async () => {
    const ctx = await context('en-US');
    const page = await ctx.newPage();
    for (const [type, app] of [
      ['mobile_banking_kbank', 'K PLUS'],
      ['mobile_banking_scb', 'SCB Easy'],
      ['mobile_banking_bay', 'Krungsri KMA'],
      ['mobile_banking_bbl', 'Bangkok Bank Mobile Banking'],
      ['mobile_banking_ktb', 'Krungthai NEXT'],
    ]) {
      const { pi, checkout } = await checkoutFor(125_000);
      await page.goto(checkout.url);
      await page.getByRole('tab', { name: 'Apps & banking' }).click();
      await page.getByRole('button', { name: `Pay with ${app}`, exact: true }).click();
      await page.waitForURL(/\/provider_returns\/sandbox\/[0-9a-f-]+\/authorize$/);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(`Pay with ${app}`);
      await page.getByRole('button', { name: 'Authorize payment' }).click();
      await page.waitForURL(`${t.url}/healthz?paid=${checkout.id}`);
      const made = await charges(pi.id);
      expect(made).toHaveLength(1);
      expect(made[0]).toMatchObject({ status: 'succeeded', payment_method: { type } });
    }
    await ctx.close();
  });

  it('installments: the terms the monthly minimum allows; paid on the issuer page with the chosen term', async () => {
    const { pi, checkout } = await checkoutFor(600_000, ['card', 'installment_kbank', 'installment_ttb']);
    const ctx = await context('en-US');
    const page = await ctx.newPage();
    await page.goto(checkout.url);
    await page.getByRole('tab', { name: 'Apps & banking' }).click();
    expect(await page.getByRole('heading', { name: 'Card installments' }).isVisible()).toBe(true);
    // 6,000 THB: KBank (300 THB a month) offers 3, 4, 6 and 10 months; ttb (500 a month) 3, 4, 6 and 10 too.
    const kbank = page.getByLabel('Term with Kasikorn Bank');
    expect(await kbank.locator('option').allTextContents()).toEqual([
      '3 months × ฿2,000.00',
      '4 months × ฿1,500.00',
      '6 months × ฿1,000.00',
      '10 months × ฿600.00',
    ]);
    await kbank.selectOption('6');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shoot(page, 'checkout-installments-en');
    await page.getByRole('button', { name: 'Pay in installments with Kasikorn Bank' }).click();
    await page.waitForURL(/\/authorize$/);
    await page.getByRole('button', { name: 'Authorize payment' }).click();
    await page.waitForURL(`${t.url}/healthz?paid=${checkout.id}`);
    const [charge] = await charges(pi.id);
    expect(charge).toMatchObject({
      status: 'succeeded',
      payment_method: { type: 'installment_kbank' },
      installment: { term: 6, issuer: 'kbank', monthly_amount: 100_000, absorption: 'merchant' },
    });
    await ctx.close();
  });
});
