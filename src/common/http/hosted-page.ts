import { randomBytes } from 'node:crypto';

/**
 * What every server-rendered hosted page (checkout, payment link, bank account intent) shares: the
 * HTML skeleton, escaping, security headers, base styles and the hand-over of the one-time session
 * from the URL fragment. The pages themselves keep only their own form and script.
 */

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text or attribute value into HTML. */
export const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => ESCAPES[c]);

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
export const hostedPagePolicy = (nonce: string, imgSrc: string) =>
  `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; img-src ${imgSrc}; ` +
  "connect-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'";

/** The card every hosted page is laid out in, and the controls and notes they all use. */
const BASE_STYLE = `
  body { font-family: system-ui, sans-serif; background: #f4f5f7; display: flex; justify-content: center; padding: 6vh 1rem; margin: 0; color: #111; }
  .test { background: #fff7e6; color: #8a5300; padding: .25rem .5rem; border-radius: 4px; display: inline-block; font-size: .8rem; margin-bottom: 1rem; }
  label { display: block; font-weight: 600; margin-top: .9rem; }
  button { margin-top: 1.25rem; width: 100%; padding: .65rem; font-size: 1rem; background: #1a56db; color: #fff; border: 0; border-radius: 4px; cursor: pointer; }
  button:disabled { opacity: .6; cursor: default; }
  .error { color: #b91c1c; background: #fef2f2; padding: .5rem; border-radius: 4px; }
`;

/** The note a test-mode page shows; nothing in live mode. */
export const testModeBanner = (livemode: boolean) =>
  livemode ? '' : '<p class="test">Test mode: no real money moves.</p>';

export interface HostedPageParts {
  nonce: string;
  /** Plain text; escaped here. */
  title: string;
  /** The page's own rules, after the shared ones. */
  style: string;
  /** HTML inside `<main>`. */
  main: string;
  /** The page's inline script, if it has one. */
  script?: string;
}

/** A complete hosted page: no referrer, its style and script allowed by the response's CSP nonce. */
export function hostedPage(parts: HostedPageParts): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="referrer" content="no-referrer">
  <title>${escapeHtml(parts.title)}</title>
  <style nonce="${parts.nonce}">${BASE_STYLE}${parts.style}</style>
</head>
<body>
  <main>
${parts.main}
  </main>
  ${parts.script ? `<script nonce="${parts.nonce}">${parts.script}</script>` : ''}
</body>
</html>
`;
}

/** A page that only says why there is nothing to show (unknown, used or unpayable link). */
export function hostedErrorPage(title: string, message: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head>
<body><main><h1>${escapeHtml(title)}</h1><p role="alert">${escapeHtml(message)}</p></main></body></html>
`;
}

/**
 * Sends the browser on to `url` by script, not by an HTTP redirect: a browser carries the URL
 * fragment (where a session travels) across a 3xx, never into logs or headers.
 */
export function scriptRedirectPage(nonce: string, url: string, title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="referrer" content="no-referrer"><title>${escapeHtml(title)}</title></head>
<body>${body}<script nonce="${nonce}">location.replace(${scriptJson(url)});</script></body></html>
`;
}

/**
 * The start of a hosted page's script: takes the one-time session from the URL fragment (never
 * sent to a server), keeps it in sessionStorage under `storageKey` for reloads and removes it from
 * the address bar. Declares `key`, `token`, `message` (the page's `#message` element) and
 * `show(text, kind)`.
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
  const show = (text, kind) => { message.textContent = text; message.className = kind; message.hidden = false; };`;
}
