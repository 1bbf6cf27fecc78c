import { mkdirSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { seriousAxeViolations } from '../../support/axe.js';
import { launchBrowser, saveScreenshots } from '../../support/browser.js';
import { createTenant, startApp, type Tenant, type TestApp } from '../../support/harness.js';
import { paymentIntentCheckout } from '../../factories/checkout.js';
import { ownAccount } from '../../factories/payouts.js';

/**
 * Every hosted page in Thai and in English, in Debian's Chromium: the language (from
 * Accept-Language and from the page's switch), the Thai currency format, the Thai QR Payment
 * frame, and axe-core finding no serious or critical violation. With HOSTED_SCREENSHOTS=<dir>
 * (`npm run screenshots`) it also saves each page at 390 px and 1280 px wide.
 */
const SHOTS = process.env.HOSTED_SCREENSHOTS;
const MERCHANT = 'Baan Somchai Coffee';

const LOCALES = [
  {
    lang: 'th',
    browserLocale: 'th-TH',
    heading: `ชำระเงินให้ ${MERCHANT}`,
    cardTab: 'บัตร',
    promptpayTab: 'พร้อมเพย์',
    cardNumber: 'หมายเลขบัตร',
    payPromptpay: 'ชำระด้วยพร้อมเพย์',
    qrLabel: 'คิวอาร์โค้ดพร้อมเพย์',
    expired: 'หมดอายุแล้ว',
    bankHeading: 'เพิ่มบัญชีธนาคาร',
    bank: 'ธนาคาร',
    accountNumber: 'เลขที่บัญชี',
    save: 'บันทึกบัญชีธนาคาร',
    lengthError: 'ต้องมี 10 หลัก',
    other: { lang: 'en', link: 'English', heading: `Pay ${MERCHANT}` },
  },
  {
    lang: 'en',
    browserLocale: 'en-US',
    heading: `Pay ${MERCHANT}`,
    cardTab: 'Card',
    promptpayTab: 'PromptPay',
    cardNumber: 'Card number',
    payPromptpay: 'Pay with PromptPay',
    qrLabel: 'PromptPay QR code',
    expired: 'has expired',
    bankHeading: 'Add a bank account',
    bank: 'Bank',
    accountNumber: 'Account number',
    save: 'Save bank account',
    lengthError: 'must be 10 digits',
    other: { lang: 'th', link: 'ไทย', heading: `ชำระเงินให้ ${MERCHANT}` },
  },
] as const;

describe('hosted pages in Thai and English, checked by axe-core', () => {
  let t: TestApp;
  let browser: Browser;
  let tenant: Tenant;

  beforeAll(async () => {
    t = await startApp({ listen: true, rateLimit: false });
    browser = await launchBrowser();
    tenant = await createTenant(t, { name: MERCHANT });
    if (SHOTS) mkdirSync(SHOTS, { recursive: true });
  });
  afterEach(() => t.clock.reset());
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  /** The link on this test server (PUBLIC_URL names the configured host). */
  const onServer = (link: string) => {
    const url = new URL(link);
    return `${t.url}${url.pathname}${url.search}${url.hash}`;
  };

  /** A context whose browser asks for `locale`; CSP bypassed only so that axe-core can be injected. */
  const context = (locale: string): Promise<BrowserContext> =>
    browser.newContext({ locale, bypassCSP: true, viewport: { width: 390, height: 844 } });

  async function expectAccessible(page: Page) {
    expect(await seriousAxeViolations(page)).toEqual([]);
  }

  const shoot = (page: Page, name: string) => saveScreenshots(page, SHOTS, name);

  for (const l of LOCALES) {
    it(`[${l.lang}] checkout: language from Accept-Language, ฿ amount, card then PromptPay in the Thai QR Payment frame`, async () => {
      const { checkout } = await paymentIntentCheckout(t, tenant, { amount: 125000, description: 'Latte x 10' });
      const ctx = await context(l.browserLocale);
      const page = await ctx.newPage();
      await page.goto(onServer(checkout.url));
      expect(await page.locator('html').getAttribute('lang')).toBe(l.lang);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(l.heading);
      expect(await page.locator('#amount').textContent()).toBe('฿1,250.00');
      expect(await page.getByRole('tab', { name: l.cardTab }).getAttribute('aria-selected')).toBe('true');
      expect(await page.getByLabel(l.cardNumber).isVisible()).toBe(true);
      expect(await page.getByRole('button', { name: l.payPromptpay }).count()).toBe(0);
      expect(await page.getByRole('link', { name: l.other.link }).getAttribute('href')).toBe(`?locale=${l.other.lang}`);
      // Controls use the page's font.
      const fonts = await page.evaluate(() => {
        const doc = (globalThis as unknown as { document: { querySelector(s: string): unknown; body: unknown } })
          .document;
        const style = (globalThis as unknown as { getComputedStyle(e: unknown): { fontFamily: string } })
          .getComputedStyle;
        return [doc.body, doc.querySelector('#card-number'), doc.querySelector('#pay-card')].map(
          (e) => style(e).fontFamily,
        );
      });
      expect(new Set(fonts).size).toBe(1);
      await expectAccessible(page);
      await shoot(page, `checkout-card-${l.lang}`);

      // Keyboard: the right arrow moves to the PromptPay tab and shows its panel only.
      await page.getByRole('tab', { name: l.cardTab }).focus();
      await page.keyboard.press('ArrowRight');
      expect(await page.getByRole('tab', { name: l.promptpayTab }).getAttribute('aria-selected')).toBe('true');
      expect(await page.getByLabel(l.cardNumber).isVisible()).toBe(false);
      await page.getByRole('button', { name: l.payPromptpay }).click();
      await page.getByRole('img', { name: new RegExp(l.qrLabel) }).waitFor();
      const frame = await page.locator('.thaiqr').innerText();
      expect(frame).toContain('THAI QR PAYMENT');
      expect(frame).toContain(MERCHANT);
      expect(frame).toContain('฿1,250.00');
      const text = await page.locator('body').innerText();
      expect(text).not.toMatch(/000201|5802TH/);
      await expectAccessible(page);
      await shoot(page, `checkout-promptpay-${l.lang}`);
      await ctx.close();
    });

    it(`[${l.lang}] expired checkout, and the switch to the other language keeps the session`, async () => {
      const { checkout } = await paymentIntentCheckout(t, tenant, { amount: 125000 });
      const ctx = await context(l.browserLocale);
      const page = await ctx.newPage();
      await page.goto(onServer(checkout.url));
      await page.getByRole('link', { name: l.other.link }).click();
      await page.waitForURL(`**?locale=${l.other.lang}`);
      expect(await page.locator('html').getAttribute('lang')).toBe(l.other.lang);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(l.other.heading);
      expect(await page.locator('#message').isHidden()).toBe(true);

      t.clock.advance(24 * 3600 * 1000 + 1000);
      await page.goto(onServer(checkout.url).split('#')[0]);
      expect(await page.locator('html').getAttribute('lang')).toBe(l.lang);
      expect(await page.getByRole('alert').textContent()).toContain(l.expired);
      expect(await page.locator('#amount').textContent()).toBe('฿1,250.00');
      expect(await page.getByRole('button').count()).toBe(0);
      await expectAccessible(page);
      await shoot(page, `checkout-expired-${l.lang}`);
      await ctx.close();
    });

    it(`[${l.lang}] bank account page: labels, errors in the alert region, accessible`, async () => {
      const own = await ownAccount(t, tenant);
      const res = await t.http
        .post(tenant.path('/bank_account_intents'))
        .set(tenant.as('test'))
        .send({ account: own, return_url: `${t.url}/healthz?r=1`, refresh_url: `${t.url}/healthz?r=2` });
      expect(res.status).toBe(200);
      const ctx = await context(l.browserLocale);
      const page = await ctx.newPage();
      await page.goto(onServer(res.body.link));
      expect(await page.locator('html').getAttribute('lang')).toBe(l.lang);
      expect(await page.getByRole('heading').textContent()).toBe(l.bankHeading);
      expect(await page.getByRole('link', { name: l.other.link }).getAttribute('href')).toBe(
        `?test_mode=true&locale=${l.other.lang}`,
      );
      await expectAccessible(page);
      await shoot(page, `bank-account-${l.lang}`);
      await page.getByLabel(l.bank, { exact: true }).selectOption('004');
      await page.getByLabel(l.accountNumber).fill('12345');
      await page.getByRole('button', { name: l.save }).click();
      expect(await page.getByRole('alert').textContent()).toContain(l.lengthError);
      await expectAccessible(page);
      await ctx.close();
    });
  }
});
