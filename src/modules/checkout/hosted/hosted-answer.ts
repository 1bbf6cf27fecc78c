import type { Request, Response } from 'express';
import { AppError } from '../../../common/errors/app-error.js';
import {
  HOSTED_PAGE_HEADERS,
  hostedPagePolicy,
  pickLocale,
  type HostedLocale,
  type PageOrigins,
} from '../../../common/http/hosted-page.js';
import { checkoutErrorPage, redirectPage } from './checkout-messages.js';

/** What a hosted-page handler needs of its request: no credential, only how to answer. */
export interface HostedVisit {
  locale: HostedLocale;
  /** The query as the browser sent it (the page's language switch keeps it). */
  query: Request['query'];
  /** The page's one-time session, from `X-Session-Token` (the page's own calls). */
  sessionToken: string | null;
  /** A browser's navigation, which gets a page rather than the error object. */
  browser: boolean;
}

export function visitOf(req: Request): HostedVisit {
  const token = req.headers['x-session-token'];
  const fetchMode = req.headers['sec-fetch-mode'];
  return {
    locale: pickLocale(req),
    query: req.query,
    sessionToken: typeof token === 'string' ? token : null,
    browser: fetchMode === 'navigate' || (fetchMode === undefined && req.accepts(['json', 'html']) === 'html'),
  };
}

/**
 * A hosted route's answer, decided by HostedCheckoutsService and sent by its controller: an HTML
 * page (with the provider origins its CSP allows), JSON for the page's own calls, or a redirect.
 */
export type HostedAnswer =
  | { kind: 'page'; status: number; nonce: string; html: string; origins?: PageOrigins }
  | { kind: 'json'; status: number; body: object }
  | { kind: 'redirect'; location: string };

export function sendHosted(res: Response, answer: HostedAnswer): void {
  if (answer.kind === 'redirect') return res.redirect(303, answer.location);
  if (answer.kind === 'json') {
    res.status(answer.status).json(answer.body);
    return;
  }
  res
    .status(answer.status)
    .set({
      ...HOSTED_PAGE_HEADERS,
      'Content-Type': 'text/html; charset=utf-8',
      'X-Frame-Options': 'DENY',
      // The PromptPay QR code is a data: image.
      'Content-Security-Policy': hostedPagePolicy(answer.nonce, 'data:', answer.origins ?? {}),
    })
    .send(answer.html);
}

/**
 * A hosted page that opens a fresh checkout (a payment link, "Pay" on an invoice page): `open`
 * creates it, and the answer sends the browser on to its page (the session in the fragment, the
 * visit's language kept); a refusal of the catalog is the "cannot be paid" page with its status.
 */
export async function redirectToNewCheckout(
  nonce: string,
  visit: HostedVisit,
  open: () => Promise<{ url: string }>,
): Promise<HostedAnswer> {
  const locale = visit.locale;
  try {
    const url = new URL((await open()).url);
    const query = visit.query.locale === locale ? `?locale=${locale}` : '';
    return {
      kind: 'page',
      status: 200,
      nonce,
      html: redirectPage(nonce, locale, `${url.pathname}${query}${url.hash}`),
    };
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return {
      kind: 'page',
      status: err.status,
      nonce,
      html: checkoutErrorPage(nonce, locale, 'linkUnpayable', err.message),
    };
  }
}
