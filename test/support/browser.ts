import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page, type Request } from 'playwright-core';

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

/**
 * CPU milliseconds (user + system, live and ended) of the processes below this one: the browsers it
 * launched with their renderer and GPU processes, for a test's progress log (where a browser test's
 * time goes, in a measure a loaded machine stretches far less than wall-clock time). Linux /proc; 0 elsewhere.
 */
export function childProcessesCpuMs(): number {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return 0;
  }
  const parent = new Map<number, number>();
  const cpu = new Map<number, number>();
  for (const pid of entries) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      // After "pid (comm) ": state ppid ... utime(11) stime(12) cutime(13) cstime(14), in clock ticks (100 Hz).
      parent.set(Number(pid), Number(fields[1]));
      cpu.set(Number(pid), (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * 10);
    } catch {
      // The process ended between the listing and the read.
    }
  }
  const mine = (pid: number): boolean => {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) if (p === process.pid) return true;
    return false;
  };
  let total = 0;
  for (const [pid, ms] of cpu) if (mine(pid)) total += ms;
  return total;
}

/** The phone viewport the hosted-page tests open at (and return to after a screenshot). */
const PHONE = { width: 390, height: 844 };

/**
 * A phone-sized context for a hosted page whose links are on PUBLIC_URL (http://localhost:3000),
 * which the test server at `serverUrl` stands for: one origin, as in production, so the page's
 * session (sessionStorage) is there when the payer comes back. CSP is bypassed for axe-core and
 * because Chromium takes a rerouted response's own origin (the test server's) as the page's 'self',
 * which would refuse the page's fetches to http://localhost:3000. route() does not see the hops of
 * an HTTP redirect: a 303 to http://localhost:3000 reaches that real port, so a test's success_url
 * is the test server's own address.
 */
export async function publicUrlContext(
  browser: Browser,
  serverUrl: string,
  options: { locale?: string; userAgent?: string } = {},
): Promise<BrowserContext> {
  const context = await browser.newContext({
    locale: options.locale ?? 'en-US',
    bypassCSP: true,
    viewport: PHONE,
    userAgent: options.userAgent,
  });
  await context.route('http://localhost:3000/**', (route) => {
    const url = new URL(route.request().url());
    return route.continue({ url: `${serverUrl}${url.pathname}${url.search}` });
  });
  return context;
}

/**
 * With a directory (HOSTED_SCREENSHOTS), saves the page as `<name>-390.png` (phone) and
 * `<name>-1280.png` (desktop), full page, then returns it to the phone viewport; nothing without one.
 */
export async function saveScreenshots(page: Page, dir: string | undefined, name: string): Promise<void> {
  if (!dir) return;
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    await page.screenshot({ path: join(dir, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize(PHONE);
}

/**
 * The headers a request went out with. Chromium reports the full set (with the cookies and the
 * headers its network stack adds) in a separate event, and for a request the page's navigation
 * cancelled that event may never come: `allHeaders()` then never settles (microsoft/playwright
 * #29833, #27227), and the test would wait until its own limit. After 20 s this takes the
 * headers the page itself set (`headers()`), which are the only ones its script can have put a
 * card number in; the check stays the same whichever set it reads.
 */
export async function sentHeaders(request: Request): Promise<Record<string, string>> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), 20_000)));
  try {
    return (await Promise.race([request.allHeaders(), bound])) ?? request.headers();
  } finally {
    clearTimeout(timer);
  }
}
