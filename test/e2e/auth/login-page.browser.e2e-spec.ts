import type { Browser } from 'playwright-core';
import { launchBrowser } from '../../support/browser.js';
import { startApp, type TestApp } from '../../support/harness.js';
import { createClient, createUser, pkcePair } from '../../factories/auth.js';

describe('sign-in page in a real browser', () => {
  let t: TestApp;
  let browser: Browser;

  beforeAll(async () => {
    t = await startApp({ listen: true });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('signs in with the labelled fields and lands on the callback with code and state', async () => {
    const user = await createUser(t);
    // The client's callback: any page that answers will do, so the service's own liveness probe.
    const REDIRECT = `${t.url}/healthz`;
    const client = await createClient(t, 'public', REDIRECT);
    const { challenge } = pkcePair();
    const page = await browser.newPage();
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: REDIRECT,
      scope: 'wallet',
      state: 'browser-state',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    await page.goto(`${t.url}/oauth2/auth?${query}`);
    await page.getByLabel('Password').fill('wrong password!');
    await page.getByLabel('Email').fill(user.email);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toContain('The email or password is wrong.');
    expect(await page.getByLabel('Email').inputValue()).toBe(user.email);
    if (process.env.LOGIN_SCREENSHOT) await page.screenshot({ path: process.env.LOGIN_SCREENSHOT });

    await page.getByLabel('Password').fill(user.password);
    await Promise.all([page.waitForURL(`${REDIRECT}?**`), page.getByRole('button', { name: 'Sign in' }).click()]);
    const callback = new URL(page.url());
    expect(callback.searchParams.get('state')).toBe('browser-state');
    expect(callback.searchParams.get('code')).toMatch(/^wac_/);
    await page.close();
  });
});
