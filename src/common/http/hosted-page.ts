import { randomBytes } from 'node:crypto';
import { Eta } from 'eta';
import type { Request } from 'express';
import { HOSTED_ERROR, HOSTED_LAYOUT, HOSTED_REDIRECT } from './templates/hosted-layout.js';

/**
 * What every server-rendered hosted page (checkout, payment link, bank account intent) shares: one
 * Eta engine that escapes every interpolation by default, the layout, the locale choice and
 * formats, security headers, base styles and the hand-over of the one-time session from the URL
 * fragment. The pages keep only their own template, strings and script.
 */

/** The languages hosted pages speak. */
export const HOSTED_LOCALES = ['th', 'en'] as const;
export type HostedLocale = (typeof HOSTED_LOCALES)[number];

/**
 * The page's language: `?locale=th|en` (the page's own switch) first, then the browser's
 * `Accept-Language`; English when neither names Thai or English.
 */
export function pickLocale(req: Request): HostedLocale {
  const asked = req.query.locale;
  if (asked === 'th' || asked === 'en') return asked;
  const accepted = req.acceptsLanguages('en', 'th');
  return accepted === 'th' ? 'th' : 'en';
}

/** The Intl locale of a page locale: Thai, or English as written in Thailand. */
export const intlLocale = (locale: HostedLocale) => (locale === 'th' ? 'th-TH' : 'en-TH');

/**
 * `฿1,234.50`, `RM 120.00`, `SGD 25.50`: an amount in minor units in the locale's currency format,
 * with as many decimals as the currency's scaling factor gives (100 → 2). The currency is its narrow
 * symbol where that symbol names it alone (฿, RM, €) and its ISO code where the symbol is shared:
 * `$` is the dollar of the US, Singapore and many others, `¥` both yen and yuan, so a payer
 * could not tell which one the page asks for.
 */
export function formatMoney(amount: number, currency: string, scalingFactor: number, locale: HostedLocale): string {
  const digits = Math.max(0, Math.round(Math.log10(scalingFactor)));
  const intl = intlLocale(locale);
  return new Intl.NumberFormat(intl, {
    style: 'currency',
    currency,
    currencyDisplay: sharedNarrowSymbols(intl).has(narrowSymbol(currency, intl)) ? 'code' : 'narrowSymbol',
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(amount / scalingFactor);
}

const narrowSymbol = (currency: string, intl: string) =>
  new Intl.NumberFormat(intl, { style: 'currency', currency, currencyDisplay: 'narrowSymbol' })
    .formatToParts(1)
    .find((part) => part.type === 'currency')!.value;

const sharedSymbols = new Map<string, ReadonlySet<string>>();

/** The narrow symbols that more than one of Intl's currencies writes in this locale (`$`, `¥`, `£`, `kr`). */
function sharedNarrowSymbols(intl: string): ReadonlySet<string> {
  let shared = sharedSymbols.get(intl);
  if (!shared) {
    const seen = new Set<string>();
    const twice = new Set<string>();
    for (const currency of Intl.supportedValuesOf('currency')) {
      const symbol = narrowSymbol(currency, intl);
      (seen.has(symbol) ? twice : seen).add(symbol);
    }
    shared = twice;
    sharedSymbols.set(intl, shared);
  }
  return shared;
}

/** JSON for an inline script: `<` escaped so no value can close the script element. */
export const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/** A fresh nonce for one response's inline style and script. */
export const newNonce = () => randomBytes(16).toString('base64');

/** Headers on every hosted page response: never cached, no referrer (the URL names the record), no sniffing. */
export const HOSTED_PAGE_HEADERS = {
  'Cache-Control': 'no-store',
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
} as const;

/**
 * The Content-Security-Policy of a hosted page: only its own inline code (by nonce) and calls to
 * this origin; `imgSrc` says where its images may come from.
 */
export const hostedPagePolicy = (nonce: string, imgSrc: string, origins: PageOrigins = {}) => {
  const more = (list: readonly string[] | undefined) => (list?.length ? ` ${list.join(' ')}` : '');
  return (
    `default-src 'none'; script-src 'nonce-${nonce}'${more(origins.script)}; style-src 'nonce-${nonce}'; ` +
    `img-src ${imgSrc}; connect-src 'self'${more(origins.connect)}; ` +
    (origins.frame?.length ? `frame-src ${origins.frame.join(' ')}; ` : '') +
    "form-action 'none'; frame-ancestors 'none'; base-uri 'none'"
  );
};

/**
 * Third-party origins a hosted page may use beyond its own: a payment provider's script (the
 * live card entry: Omise.js, Stripe.js), the frames it opens and the hosts it calls. Absent: none.
 */
export interface PageOrigins {
  script?: readonly string[];
  frame?: readonly string[];
  connect?: readonly string[];
}

/** The strings of the layout itself. */
const SHELL_TEXT = {
  th: { language: 'ภาษา', testMode: 'โหมดทดสอบ: ไม่มีการเคลื่อนไหวของเงินจริง' },
  en: { language: 'Language', testMode: 'Test mode: no real money moves.' },
} satisfies Record<HostedLocale, Record<string, string>>;

const LANGUAGE_NAMES: Record<HostedLocale, string> = { th: 'ไทย', en: 'English' };

/**
 * The card every hosted page is laid out in, and the controls and notes they all use. Colours
 * keep at least 4.5:1 contrast on their backgrounds; controls inherit the page font.
 */
const BASE_STYLE = `
  *, *::before, *::after { box-sizing: border-box; }
  body { margin: 0; padding: 5vh 1rem; display: flex; justify-content: center; background: #eef2f6; color: #0f172a;
    font: 16px/1.6 system-ui, -apple-system, "Segoe UI", "Noto Sans Thai", "Leelawadee UI", Tahoma, sans-serif; }
  button, input, select, textarea { font: inherit; color: inherit; }
  main { background: #fff; width: 100%; max-width: 26rem; padding: 1.5rem; border-radius: 12px;
    box-shadow: 0 1px 2px rgba(15,23,42,.08), 0 8px 24px rgba(15,23,42,.08); }
  h1 { font-size: 1.25rem; line-height: 1.35; margin: 0 0 .25rem; }
  .top { display: flex; align-items: center; justify-content: space-between; gap: 1rem; margin-bottom: 1rem; min-height: 1.5rem; }
  .brand { font-size: .85rem; color: #475569; font-weight: 600; }
  nav.lang { display: flex; gap: .25rem; }
  nav.lang a { font-size: .85rem; padding: .15rem .55rem; border-radius: 999px; color: #1e40af; text-decoration: none; border: 1px solid #cbd5e1; }
  nav.lang a[aria-current] { background: #1e40af; border-color: #1e40af; color: #fff; }
  .test { background: #fff7e6; color: #7a4a00; padding: .25rem .6rem; border-radius: 6px; display: inline-block; font-size: .85rem; margin: 0 0 1rem; }
  label { display: block; font-weight: 600; margin-top: 1rem; }
  input, select { width: 100%; padding: .6rem .75rem; margin-top: .3rem; border: 1px solid #64748b; border-radius: 8px; background: #fff; }
  button { margin-top: 1.25rem; width: 100%; padding: .7rem 1rem; background: #1d4ed8; color: #fff; border: 0; border-radius: 8px; font-weight: 600; cursor: pointer; }
  button:hover { background: #1e40af; }
  button:disabled { opacity: .65; cursor: default; }
  a { color: #1e40af; }
  :focus-visible { outline: 3px solid #f59e0b; outline-offset: 2px; }
  .error { color: #991b1b; background: #fef2f2; padding: .6rem .75rem; border-radius: 8px; }
  .done { color: #065f46; background: #ecfdf5; padding: .6rem .75rem; border-radius: 8px; }
  [hidden] { display: none !important; }
`;

/** The hosted pages' template engine: every `<%= %>` is escaped; templates are registered by name at load. */
const engine = new Eta({ autoEscape: true, autoTrim: [false, 'nl'], useWith: false, cache: true });
engine.loadTemplate('@layout', HOSTED_LAYOUT);
engine.loadTemplate('@error', HOSTED_ERROR);
engine.loadTemplate('@redirect', HOSTED_REDIRECT);

/** Registers a page template (it starts with `<% layout('@layout') %>`) under `@name`. */
export function registerHostedTemplate(name: `@${string}`, template: string): void {
  engine.loadTemplate(name, template);
}

/** What the shared layout needs from every page. */
export interface HostedPageFrame {
  /** The response CSP's nonce for the inline style and script; '' only on a page without script whose CSP admits inline style. */
  nonce: string;
  locale: HostedLocale;
  /** Plain text. */
  title: string;
  /** The page's own rules, after the shared ones. */
  style?: string;
  /** The page's inline script, if it has one. */
  script?: string;
  /** The top bar's text. */
  brand?: string;
  /** Test-mode pages say so; undefined shows nothing. */
  livemode?: boolean;
  /** The current request's query, kept by the language switch (e.g. `test_mode`); none: no switch. */
  query?: Record<string, unknown>;
}

/** The language switch: the same page in each locale, keeping the other query parameters. */
function languageLinks(locale: HostedLocale, query: Record<string, unknown>) {
  return HOSTED_LOCALES.map((code) => {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) {
      if (name !== 'locale' && typeof value === 'string') params.set(name, value);
    }
    params.set('locale', code);
    return { code, label: LANGUAGE_NAMES[code], href: `?${params}`, current: code === locale };
  });
}

/** Renders the page template `name` with `data` inside the shared layout. */
export function renderHostedPage(name: `@${string}`, frame: HostedPageFrame, data: object = {}): string {
  return engine.render(name, {
    ...data,
    ...frame,
    lang: frame.locale,
    style: BASE_STYLE + (frame.style ?? ''),
    t: { ...SHELL_TEXT[frame.locale], ...(data as { t?: object }).t },
    languages: frame.query ? languageLinks(frame.locale, frame.query) : [],
  });
}

/** A page that only says why there is nothing to show (unknown, used or unpayable link). */
export function hostedErrorPage(frame: HostedPageFrame, heading: string, message: string): string {
  return renderHostedPage('@error', frame, { heading, message });
}

/**
 * Sends the browser on to `url` by script, not by an HTTP redirect: a browser carries the URL
 * fragment (where a session travels) across a 3xx, never into logs or headers. `link` shows a
 * visible way on for when the script does not run.
 */
export function scriptRedirectPage(
  frame: Omit<HostedPageFrame, 'script'>,
  url: string,
  text: { heading: string; message: string; link?: string },
): string {
  return renderHostedPage(
    '@redirect',
    { ...frame, script: `location.replace(${scriptJson(url)});` },
    { heading: text.heading, message: text.message, href: text.link ? url : null, linkText: text.link },
  );
}

/**
 * The start of a hosted page's script: takes the one-time session from the URL fragment (never
 * sent to a server), keeps it in sessionStorage under `storageKey` for reloads and removes it from
 * the address bar. Declares `key`, `token`, and `show(text, kind)`, which puts an error
 * (`kind` 'error') in the page's `#message` alert or a status ('done') in its `#status` region.
 */
export function sessionFromFragmentScript(storageKey: string): string {
  return `
  const key = ${scriptJson(storageKey)};
  const fragment = new URLSearchParams(location.hash.slice(1)).get('session');
  if (fragment) {
    sessionStorage.setItem(key, fragment);
    history.replaceState(null, '', location.pathname + location.search);
  }
  const token = sessionStorage.getItem(key);
  const message = document.getElementById('message');
  const statusLine = document.getElementById('status');
  const show = (text, kind) => {
    const target = kind === 'error' ? message : statusLine;
    const other = kind === 'error' ? statusLine : message;
    if (other) other.hidden = true;
    target.textContent = text;
    target.hidden = false;
  };`;
}
