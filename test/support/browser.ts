import { readdirSync, readFileSync } from 'node:fs';
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
