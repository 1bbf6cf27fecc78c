import { scriptJson, type HostedLocale } from '../../../common/http/hosted-page.js';

/** The strings the status poll shows (kept apart from SCRIPT_TEXT, which the card form uses). */
const STATUS_TEXT = {
  en: {
    paid: 'Payment received. Thank you.',
    expired: 'This checkout has expired and can no longer be paid.',
    qrExpired: 'This QR code has expired. Choose Pay with PromptPay for a new one.',
  },
  th: {
    paid: 'ได้รับการชำระเงินแล้ว ขอบคุณ',
    expired: 'รายการนี้หมดอายุแล้ว ไม่สามารถชำระเงินได้',
    qrExpired: 'คิวอาร์โค้ดนี้หมดอายุแล้ว กดชำระด้วยพร้อมเพย์เพื่อรับคิวอาร์โค้ดใหม่',
  },
} satisfies Record<HostedLocale, Record<string, string>>;

/** How often the open page asks for its checkout's status. */
const STATUS_POLL_MS = 2000;

/**
 * The page's second script block, separate from `pageScript` (the card form's): it polls
 * GET /pay/{slug}/checkouts/{id}/status with the page's own session (X-Session-Token, never a
 * key) so the page moves on by itself when the checkout is paid elsewhere (the buyer's banking
 * app paid the PromptPay QR): to success_url, or a thank-you when there is none. An expired
 * checkout or QR code shows its expiry. It stops once the page has nothing left to wait for.
 */
export function statusScript(input: { slug: string; checkoutId: string; locale: HostedLocale }): string {
  const config = {
    url: `/pay/${encodeURIComponent(input.slug)}/checkouts/${encodeURIComponent(input.checkoutId)}/status`,
    key: `wallet-checkout-session:${input.checkoutId}`,
    every: STATUS_POLL_MS,
    t: STATUS_TEXT[input.locale],
  };
  return `
(() => {
  const status = ${scriptJson(config)};
  const token = sessionStorage.getItem(status.key);
  if (!token) return;
  const byId = (id) => document.getElementById(id);
  const say = (id, text) => {
    const line = byId(id);
    const other = byId(id === 'message' ? 'status' : 'message');
    if (other) other.hidden = true;
    if (line) { line.textContent = text; line.hidden = false; }
  };
  const closeForms = () => document
    .querySelectorAll('form, button, #promptpay-qr, #other-qr, .method-group, [role=tablist], #promptpay-hint, a.cancel')
    .forEach((e) => { e.hidden = true; });
  const tick = async () => {
    // The page is already leaving (the card form's script sent it on): nothing left to wait for.
    if (document.documentElement.dataset.leaving) return;
    // A QR code shown only after this request left cannot be judged by its answer.
    const qr = byId('promptpay-qr');
    const qrShown = Boolean(qr && !qr.hidden);
    try {
      const response = await fetch(status.url, { headers: { 'X-Session-Token': token }, cache: 'no-store' });
      if (response.status === 404) return;
      if (response.ok) {
        const now = await response.json();
        if (now.status === 'complete') {
          sessionStorage.removeItem(status.key);
          if (now.redirect_url) {
            // Once: the card form's script may already be on its way there (the confirm's answer).
            if (!document.documentElement.dataset.leaving) {
              document.documentElement.dataset.leaving = 'true';
              location.assign(now.redirect_url);
            }
            return;
          }
          closeForms();
          say('status', status.t.paid);
          return;
        }
        if (now.status === 'expired') {
          closeForms();
          say('message', status.t.expired);
          return;
        }
        if (qrShown && !qr.hidden && now.promptpay !== 'pending') {
          qr.hidden = true;
          byId('promptpay-hint').hidden = false;
          byId('pay-promptpay').hidden = false;
          say('message', status.t.qrExpired);
        }
      }
    } catch (error) {
      // Offline for a moment: ask again at the next tick.
    }
    setTimeout(tick, status.every);
  };
  setTimeout(tick, status.every);
})();
`;
}
