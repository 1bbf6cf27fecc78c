import type { Browser } from 'playwright-core';
import { launchBrowser } from '../../support/browser.js';
import { createTenant, startApp, type Tenant, type TestApp } from '../../support/harness.js';
import { connectedAccount, ownAccount, storedRow } from '../../factories/payouts.js';

const MINUTE = 60_000;

describe('hosted bank account page in a real browser', () => {
  let t: TestApp;
  let browser: Browser;
  let tenant: Tenant;

  /** The service's own liveness probe stands in for the partner's pages. */
  const returnUrl = () => `${t.url}/healthz?landed=return`;
  const refreshUrl = () => `${t.url}/healthz?landed=refresh`;
  /** The link on this test server (PUBLIC_URL names the configured host; the path, query and fragment are the link's). */
  const onServer = (link: string) => {
    const url = new URL(link);
    return `${t.url}${url.pathname}${url.search}${url.hash}`;
  };
  const createIntent = async (account: string) => {
    const res = await t.http
      .post(tenant.path('/bank_account_intents'))
      .set(tenant.as('test'))
      .send({ account, return_url: returnUrl(), refresh_url: refreshUrl() });
    expect(res.status).toBe(200);
    return res.body as { id: string; session: string; link: string };
  };

  beforeAll(async () => {
    t = await startApp({ listen: true, rateLimit: false });
    browser = await launchBrowser();
    tenant = await createTenant(t);
  });
  afterEach(() => t.clock.reset());
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('saves a bookbank account with the labelled fields and lands on return_url; the account is then listed', async () => {
    const own = await ownAccount(t, tenant);
    const intent = await createIntent(own);
    const page = await browser.newPage();
    await page.goto(onServer(intent.link));
    expect(page.url()).not.toContain(intent.session);

    await page.getByLabel('Bank').selectOption('004');
    await page.getByLabel('Account number').fill('123-4-56789');
    await page.getByLabel('Account holder name').fill('Somchai Jaidee');
    await page.getByRole('button', { name: 'Save bank account' }).click();
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toContain('10 digits');

    await page.getByLabel('Account number').fill('123-4-56789-0');
    await Promise.all([
      page.waitForURL(`${t.url}/healthz?landed=return`),
      page.getByRole('button', { name: 'Save bank account' }).click(),
    ]);
    await page.close();

    const list = await t.http.get(tenant.path('/bank_accounts')).set(tenant.as('test'));
    expect(list.body.data).toContainEqual(
      expect.objectContaining({
        type: 'bookbank',
        account: own,
        bank_code: '004',
        account_number: '******7890',
        account_holder_name: 'Somchai Jaidee',
        intent: intent.id,
        provider_status: 'created',
      }),
    );
    expect(JSON.stringify(list.body)).not.toContain('1234567890');
    const saved = list.body.data.find((b: { intent: string }) => b.intent === intent.id);
    expect(await storedRow(t, saved.id)).toMatchObject({ account_number: '******7890', last4: '7890' });
  });

  it('sends an expired link to refresh_url', async () => {
    const intent = await createIntent(await ownAccount(t, tenant));
    t.clock.advance(31 * MINUTE);
    const page = await browser.newPage();
    await page.goto(onServer(intent.link));
    await page.waitForURL(`${t.url}/healthz?landed=refresh`);
    expect(page.url()).not.toContain(intent.session);
    await page.close();
  });

  it('sends a page that expires while open to refresh_url when saving, for a connected account too', async () => {
    const connected = await connectedAccount(t, tenant, 'verified', 'Baan Somchai');
    const intent = await createIntent(connected);
    const page = await browser.newPage();
    await page.goto(onServer(intent.link));
    expect(await page.getByRole('heading').textContent()).toContain('Baan Somchai');
    await page.getByLabel('Bank').selectOption('030');
    await page.getByLabel('Account number').fill('020123456789');
    await page.getByLabel('Account holder name').fill('Baan Somchai Co., Ltd.');
    t.clock.advance(31 * MINUTE);
    await Promise.all([
      page.waitForURL(`${t.url}/healthz?landed=refresh`),
      page.getByRole('button', { name: 'Save bank account' }).click(),
    ]);
    await page.close();
  });
});
