import { chromium, type Browser } from 'playwright-core';

/**
 * Debian's Chromium (installed by .ci/run), never a downloaded browser. The flags keep it from
 * reaching out to the network, which this machine does not have.
 */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
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
}
