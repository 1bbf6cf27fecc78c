import type { Browser } from 'playwright-core';
import { launchBrowser } from '../../support/browser.js';
import { createTenant, startApp, type Tenant, type TestApp } from '../../support/harness.js';
import { createCustomer } from '../../factories/checkout.js';
import { SAVED_CARDS, setupCheckout } from '../../factories/payment-methods.js';

/**
 * The hosted page of a setup checkout in Debian's Chromium (docs/COLLECTION.md, "Saved payment
 * methods"): the customer types a card, it is saved without a charge, and the page goes on to
 * success_url; the API then lists the card on the customer, as its default.
 */
describe('hosted setup page in a real browser', () => {
  let t: TestApp;
  let browser: Browser;
  let tenant: Tenant;

  beforeAll(async () => {
    t = await startApp({ listen: true });
    browser = await launchBrowser();
    tenant = await createTenant(t);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  const get = (path: string) => t.http.get(tenant.path(path)).set(tenant.as('test'));

  it('saves the card typed on the page to the customer, charging nothing, and lands on success_url', async () => {
    const customer = await createCustomer(t, tenant);
    const checkout = await setupCheckout(t, tenant, customer.id, {
      success_url: `${t.url}/healthz?setup={CHECKOUT_ID}`,
    });
    const url = new URL(checkout.url);
    const page = await browser.newPage();
    await page.goto(`${t.url}${url.pathname}${url.hash}`);
    expect(page.url()).not.toContain('session=');
    expect(await page.locator('h1').textContent()).toContain('Save a card for');
    expect(await page.locator('#amount').count()).toBe(0);
    await page.getByLabel('Card number').fill(SAVED_CARDS.succeeds);
    await page.getByLabel('Expiry').fill('12/34');
    await page.getByLabel('CVC').fill('123');
    await Promise.all([
      page.waitForURL(`${t.url}/healthz?setup=${checkout.id}`),
      page.getByRole('button', { name: 'Save card', exact: true }).click(),
    ]);
    await page.close();

    const after = (await get(`/checkouts/${checkout.id}`)).body;
    expect(after).toMatchObject({ status: 'complete', payment_status: 'no_payment_required' });
    const saved = (await get(`/customers/${customer.id}/payment_methods`)).body.data;
    expect(saved).toEqual([
      expect.objectContaining({ id: after.setup_payment_method, status: 'attached', last4: '4242' }),
    ]);
    expect((await get(`/customers/${customer.id}`)).body.invoice_settings.default_payment_method).toBe(
      after.setup_payment_method,
    );
    expect((await get('/charges').query({ 'filter[customer_id]': customer.id })).body.data).toEqual([]);
  });
});
