import { chromium, type Browser } from 'playwright-core';

/**
 * How long one browser action (a click, a fill, a waitFor, a navigation) may take before it fails:
 * a limit against hangs, not a speed check. Playwright's own 30 s was one: at a load average of 20
 * on this 2-core machine the hosted PromptPay page took longer than that to show its QR code. Below
 * Jest's testTimeout (120 s), so a real hang still fails with Playwright's call log.
 */
export const BROWSER_ACTION_TIMEOUT_MS = 100_000;

/**
 * Debian's Chromium (installed by .ci/run), never a downloaded browser. The flags keep it from
 * reaching out to the network, which this machine does not have. Every context it opens (also the
 * one behind `browser.newPage()`) has BROWSER_ACTION_TIMEOUT_MS as its default timeout.
 */
export async function launchBrowser(): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    timeout: BROWSER_ACTION_TIMEOUT_MS,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (...args) => {
    const context = await newContext(...args);
    context.setDefaultTimeout(BROWSER_ACTION_TIMEOUT_MS);
    return context;
  };
  return browser;
}
