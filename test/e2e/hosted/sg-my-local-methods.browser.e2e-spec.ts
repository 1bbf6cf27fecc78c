import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { seriousAxeViolations } from '../../support/axe.js';
import { launchBrowser, publicUrlContext, saveScreenshots } from '../../support/browser.js';
import { createTenant, startApp, type Tenant, type TestApp } from '../../support/harness.js';
import { createCheckout, createPaymentIntent } from '../../factories/checkout.js';

/**
 * Issue 40's Singapore and Malaysia methods on the hosted page, in one browser, in test mode (the
 * sandbox): PayNow's QR code paid with the page's test-mode control; FPX with the payer's bank and
 * GrabPay through the sandbox's payment page and the return route to success_url. With
 * HOSTED_SCREENSHOTS=<dir> it saves each step.
 */
const SHOTS = process.env.HOSTED_SCREENSHOTS;

describe('hosted page: PayNow and GrabPay (SG), FPX and GrabPay (MY) (Chromium, test mode)', () => {
  let t: TestApp;
  let browser: Browser;
  let sg: Tenant;
  let my: Tenant;

  beforeAll(async () => {
    t = await startApp({ listen: true, rateLimit: false });
    browser = await launchBrowser();
    sg = await createTenant(t, { name: 'Tiong Bahru Kopi', countries: ['SG'] });
    my = await createTenant(t, { name: 'Kedai Kopi Ah Seng', countries: ['MY'] });
    if (SHOTS) mkdirSync(SHOTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  /**
   * A phone-sized context with PUBLIC_URL on this server (test/support/browser.ts): success_url is
   * this server's own address (checkoutFor), since route() does not see a redirect's hops.
   */
  const context = (locale = 'en-US') => publicUrlContext(browser, t.url, { locale });

  const shoot = (page: Page, name: string) => saveScreenshots(page, SHOTS, name);

  /** A checkout in the tenant's country and currency (success_url on this server, so the browser lands somewhere real). */
  async function checkoutFor(tenant: Tenant, amount: number, currency: string) {
    const pi = await createPaymentIntent(t, tenant, { amount, currency, description: 'Kopi and kaya toast' });
    const checkout = await createCheckout(t, tenant, {
      target_type: 'payment_intent',
      target_id: pi.id,
      success_url: `${t.url}/healthz?paid={CHECKOUT_ID}`,
    });
    return { pi, checkout };
  }

  const charges = async (tenant: Tenant, piId: string) =>
    (await t.http.get(tenant.path(`/charges?filter[payment_intent]=${piId}`)).set(tenant.as('test'))).body.data;

  it('PayNow: the QR code with the amount, paid with the test-mode control; the page goes to success_url', async () => {
    const { pi, checkout } = await checkoutFor(sg, 2_550, 'SGD');
    expect(pi.payment_method_types).toEqual(['card', 'paynow', 'grabpay']);
    const ctx = await context();
    const page = await ctx.newPage();
    await page.goto(checkout.url);
    // '$' alone would not tell Singapore's dollar from the US one: the page writes the ISO code.
    expect(await page.locator('#amount').textContent()).toBe('SGD\u00a025.50');
    await page.getByRole('tab', { name: 'Apps & banking' }).click();
    await page.getByRole('button', { name: 'Pay with PayNow' }).click();
    const qr = page.getByRole('region', { name: 'QR code to scan' });
    await qr.waitFor();
    expect(await qr.locator('.qr-amount').textContent()).toBe('SGD\u00a025.50');
    const image = qr.getByRole('img', { name: 'QR code to scan with your app' });
    expect(await image.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    // decode() rejects for an image the browser cannot show; then its width is the 256 px QR code.
    type Img = { decode(): Promise<void>; naturalWidth: number };
    const width = await image.evaluate(async (element) => {
      const img = element as unknown as Img;
      await img.decode();
      return img.naturalWidth;
    });
    expect(width).toBe(256);
    // The sandbox's PayNow code is a test payload naming the method, the amount and the currency.
    const [pending] = await charges(sg, pi.id);
    expect(pending).toMatchObject({ status: 'pending', payment_method: { type: 'paynow' } });
    expect(pending.next_action).toEqual([
      expect.objectContaining({
        type: 'display_qr_code',
        qr_data: expect.stringMatching(/^sandbox:paynow:.+:2550:SGD$/),
      }),
    ]);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shoot(page, 'checkout-paynow-en');
    await page.getByRole('button', { name: 'Simulate payment (test mode)' }).click();
    await page.waitForURL(`${t.url}/healthz?paid=${checkout.id}`);
    const [charge] = await charges(sg, pi.id);
    expect(charge).toMatchObject({
      status: 'succeeded',
      currency: 'SGD',
      amount: 2_550,
      payment_method: { type: 'paynow' },
    });
    await ctx.close();
  });

  it('[th, en] FPX under online banking: no bank until the payer picks one, authorizes on the payment page, back through the return route to success_url', async () => {
    const { pi, checkout } = await checkoutFor(my, 12_000, 'MYR');
    expect(pi.payment_method_types).toEqual(['card', 'fpx', 'grabpay']);
    // The page speaks Thai to a payer whose browser asks for it, in Malaysia too.
    const th = await context('th-TH');
    const thai = await th.newPage();
    await thai.goto(checkout.url);
    await thai.getByRole('tab', { name: 'แอปและธนาคาร' }).click();
    const thaiBanking = thai.getByRole('region', { name: 'ธนาคารออนไลน์' });
    expect(await thaiBanking.locator('.hint').textContent()).toBe(
      'ระบบจะพาคุณไปยังเว็บไซต์ธนาคารของคุณเพื่ออนุมัติการชำระเงิน แล้วกลับมาที่หน้านี้',
    );
    const thaiBanks = thaiBanking.getByLabel('ธนาคารของคุณสำหรับ FPX (ธนาคารออนไลน์มาเลเซีย)');
    expect(await thaiBanks.locator('option:checked').textContent()).toBe('เลือกธนาคารของคุณ');
    expect(
      await thai
        .getByRole('region', { name: 'วอลเล็ทและแอป' })
        .getByRole('button', { name: 'ชำระด้วย แกร็บเพย์' })
        .isVisible(),
    ).toBe(true);
    expect(await seriousAxeViolations(thai)).toEqual([]);
    await shoot(thai, 'checkout-fpx-th');
    await th.close();

    const ctx = await context();
    const page = await ctx.newPage();
    const confirms: unknown[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith(`/checkouts/${checkout.id}/confirm`)) confirms.push(request.postDataJSON());
    });
    await page.goto(checkout.url);
    await page.getByRole('tab', { name: 'Apps & banking' }).click();
    // A bank redirect, not an app: its own group, whose hint says where the payer approves.
    const banking = page.getByRole('region', { name: 'Online banking' });
    expect(await banking.locator('.hint').textContent()).toBe(
      "You are taken to your bank's site to approve the payment, then back here.",
    );
    const banks = banking.getByLabel('Your bank for FPX online banking');
    expect(await banks.locator('option:not([disabled])').count()).toBe(19);
    expect(await banks.locator('option').allTextContents()).toEqual(
      expect.arrayContaining(['Maybank2U', 'CIMB Clicks']),
    );
    // No bank is chosen for the payer: the select opens on a placeholder that is not a value.
    expect(await banks.inputValue()).toBe('');
    expect(await banks.locator('option:checked').textContent()).toBe('Choose your bank');
    expect(await banks.locator('option:checked').isDisabled()).toBe(true);
    expect(
      await page
        .getByRole('region', { name: 'Wallets and apps' })
        .getByRole('button', { name: 'Pay with GrabPay' })
        .isVisible(),
    ).toBe(true);
    // Pay without a bank: the message under the select, tied to it, the focus on it, and no confirm.
    await page.getByRole('button', { name: 'Pay with FPX online banking' }).click();
    const missing = page.getByText('Choose your bank to pay with FPX online banking.');
    expect(await missing.isVisible()).toBe(true);
    expect(await banks.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator(':focus').getAttribute('id')).toBe('bank-fpx');
    expect(
      await page.getByRole('combobox', { description: 'Choose your bank to pay with FPX online banking.' }).count(),
    ).toBe(1);
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(await charges(my, pi.id)).toEqual([]);
    await banks.selectOption({ label: 'Public Bank' });
    expect(await missing.isVisible()).toBe(false);
    expect(await banks.getAttribute('aria-invalid')).toBeNull();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shoot(page, 'checkout-fpx-en');
    await page.getByRole('button', { name: 'Pay with FPX online banking' }).click();
    await page.waitForURL(/\/provider_returns\/sandbox\/[0-9a-f-]+\/authorize$/);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Pay with FPX online banking');
    expect(await page.locator('#amount').textContent()).toBe('RM\u00a0120.00');
    // It stands in for the page of the bank the payer picked.
    expect(await page.getByText('Pays with:').textContent()).toBe('Pays with: Public Bank');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shoot(page, 'sandbox-payment-fpx-en');
    await page.getByRole('button', { name: 'Authorize payment' }).click();
    await page.waitForURL(`${t.url}/healthz?paid=${checkout.id}`);
    const [charge] = await charges(my, pi.id);
    expect(charge).toMatchObject({
      status: 'succeeded',
      currency: 'MYR',
      amount: 12_000,
      payment_method: { type: 'fpx', issuer: 'public_bank' },
    });
    // The one confirm the page sent is the one with the bank: the press without one sent none.
    expect(confirms).toEqual([{ payment_method_type: 'fpx', bank: 'public_bank' }]);
    await ctx.close();
  });

  it.each([
    ['MY', 4_590, 'MYR', 'RM\u00a045.90'],
    ['SG', 1_280, 'SGD', 'SGD\u00a012.80'],
  ] as const)(
    'GrabPay (%s): redirect to the payment page, authorize, back through the return route to success_url',
    async (country, amount, currency, shown) => {
      const tenant = country === 'MY' ? my : sg;
      const { pi, checkout } = await checkoutFor(tenant, amount, currency);
      const ctx = await context();
      const page = await ctx.newPage();
      await page.goto(checkout.url);
      await page.getByRole('tab', { name: 'Apps & banking' }).click();
      await page.getByRole('button', { name: 'Pay with GrabPay' }).click();
      await page.waitForURL(/\/provider_returns\/sandbox\/[0-9a-f-]+\/authorize$/);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Pay with GrabPay');
      expect(await page.locator('#amount').textContent()).toBe(shown);
      if (country === 'MY') await shoot(page, 'sandbox-payment-grabpay-en');
      await page.getByRole('button', { name: 'Authorize payment' }).click();
      await page.waitForURL(`${t.url}/healthz?paid=${checkout.id}`);
      const [charge] = await charges(tenant, pi.id);
      expect(charge).toMatchObject({
        status: 'succeeded',
        currency,
        payment_method: { type: 'grabpay', issuer: null },
      });
      await ctx.close();
    },
  );
});
