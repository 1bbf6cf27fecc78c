import {
  formatMoney,
  hostedErrorPage,
  intlLocale,
  registerHostedTemplate,
  renderHostedPage,
  scriptJson,
  scriptRedirectPage,
  sessionFromFragmentScript,
  type HostedLocale,
} from '../../../../common/http/hosted-page.js';
import type { CardEntry } from './card-entry.js';
import { CHECKOUT_TEMPLATE } from './templates/checkout.template.js';

registerHostedTemplate('@checkout', CHECKOUT_TEMPLATE);

export interface CheckoutPageInput {
  nonce: string;
  locale: HostedLocale;
  /** The request's query, kept by the language switch. */
  query: Record<string, unknown>;
  merchant: string;
  slug: string;
  checkoutId: string;
  country: string;
  livemode: boolean;
  status: 'open' | 'complete' | 'expired';
  amount: number;
  currency: string;
  scalingFactor: number;
  description: string | null;
  paymentMethodTypes: string[];
  successUrl: string | null;
  cancelUrl: string | null;
  /** Who takes the card number: the test-mode vault or the provider's script (card-entry.ts). */
  cardEntry: CardEntry;
  /** A message shown as the page opens (a 3-D Secure return that ended in a decline). */
  notice?: string | null;
}

/** The page's strings; `{merchant}` is filled in. */
const TEXT = {
  en: {
    title: 'Pay {merchant}',
    heading: 'Pay {merchant}',
    brand: 'Secure checkout',
    paid: 'This checkout has been paid. Thank you.',
    expired: 'This checkout has expired and can no longer be paid.',
    method: 'Payment method',
    tabCard: 'Card',
    tabPromptpay: 'PromptPay',
    cardNumber: 'Card number',
    cardName: 'Name on card',
    expiry: 'Expiry',
    expiryPlaceholder: 'MM/YY',
    cvc: 'CVC',
    pay: 'Pay',
    promptpayHint: 'Pay from any Thai banking app by scanning a Thai QR code.',
    payPromptpay: 'Pay with PromptPay',
    qrLabel: 'PromptPay QR code',
    qrAlt: 'PromptPay QR code to scan with a banking app',
    scan: 'Scan with your banking app. The code is valid until',
    simulate: 'Simulate PromptPay payment (test mode)',
    cancel: 'Cancel and return to {merchant}',
  },
  th: {
    title: 'ชำระเงินให้ {merchant}',
    heading: 'ชำระเงินให้ {merchant}',
    brand: 'ชำระเงินอย่างปลอดภัย',
    paid: 'รายการนี้ชำระเงินเรียบร้อยแล้ว ขอบคุณ',
    expired: 'รายการนี้หมดอายุแล้ว ไม่สามารถชำระเงินได้',
    method: 'วิธีชำระเงิน',
    tabCard: 'บัตร',
    tabPromptpay: 'พร้อมเพย์',
    cardNumber: 'หมายเลขบัตร',
    cardName: 'ชื่อบนบัตร',
    expiry: 'วันหมดอายุ',
    expiryPlaceholder: 'ดด/ปป',
    cvc: 'รหัส CVC',
    pay: 'ชำระเงิน',
    promptpayHint: 'สแกนคิวอาร์โค้ดด้วยแอปธนาคารใดก็ได้ในประเทศไทย',
    payPromptpay: 'ชำระด้วยพร้อมเพย์',
    qrLabel: 'คิวอาร์โค้ดพร้อมเพย์',
    qrAlt: 'คิวอาร์โค้ดพร้อมเพย์สำหรับสแกนด้วยแอปธนาคาร',
    scan: 'สแกนด้วยแอปธนาคารของคุณ คิวอาร์โค้ดใช้ได้ถึง',
    simulate: 'จำลองการชำระด้วยพร้อมเพย์ (โหมดทดสอบ)',
    cancel: 'ยกเลิกและกลับไปที่ {merchant}',
  },
} satisfies Record<HostedLocale, Record<string, string>>;

/** The strings the page's script shows. */
const SCRIPT_TEXT = {
  en: {
    incomplete: 'This payment link is incomplete: open the full link you were given.',
    sessionInvalid: 'This payment session is no longer valid. It may have been paid or expired.',
    notProcessed: 'The payment could not be processed.',
    received: 'Payment received. Thank you.',
    failed: 'The payment failed.',
    declined: null,
    expiryFormat: 'Enter the expiry as MM/YY.',
  },
  th: {
    incomplete: 'ลิงก์ชำระเงินนี้ไม่ครบถ้วน กรุณาเปิดลิงก์เต็มที่คุณได้รับ',
    sessionInvalid: 'รายการชำระเงินนี้ใช้ไม่ได้แล้ว อาจชำระแล้วหรือหมดอายุ',
    notProcessed: 'ไม่สามารถดำเนินการชำระเงินได้',
    received: 'ได้รับการชำระเงินแล้ว ขอบคุณ',
    failed: 'การชำระเงินไม่สำเร็จ',
    declined: 'บัตรของคุณถูกปฏิเสธ',
    expiryFormat: 'กรุณากรอกวันหมดอายุในรูปแบบ ดด/ปป',
  },
} satisfies Record<HostedLocale, Record<string, string | null>>;

const fill = (strings: Record<string, string>, merchant: string) =>
  Object.fromEntries(Object.entries(strings).map(([k, v]) => [k, v.replace('{merchant}', merchant)]));

const STYLE = `
  .amount { font-size: 2rem; font-weight: 700; margin: .25rem 0 .5rem; letter-spacing: -.01em; }
  .description { color: #475569; margin: 0 0 1rem; }
  .row { display: flex; gap: .75rem; } .row > div { flex: 1; min-width: 0; }
  .methods { display: flex; gap: .25rem; padding: .25rem; margin: 1rem 0 .25rem; background: #f1f5f9; border-radius: 10px; }
  .methods [role=tab] { margin: 0; flex: 1; padding: .5rem; background: transparent; color: #334155; border-radius: 8px; font-weight: 600; }
  .methods [role=tab]:hover { background: #e2e8f0; }
  .methods [role=tab][aria-selected=true] { background: #fff; color: #0f172a; box-shadow: 0 1px 3px rgba(15,23,42,.18); }
  .hint { color: #475569; font-size: .9rem; margin: 1rem 0 0; }
  .thaiqr { margin: 1.25rem auto .5rem; max-width: 18rem; border: 1px solid #cbd5e1; border-radius: 10px; overflow: hidden; text-align: center; }
  .thaiqr-band { display: flex; align-items: center; justify-content: center; gap: .5rem; padding: .6rem; background: #0b3b63; color: #fff; }
  .thaiqr-icon { width: 1.75rem; height: 1.75rem; }
  .thaiqr-title { font-weight: 700; letter-spacing: .08em; font-size: .95rem; }
  .thaiqr-body { padding: .75rem 1rem 1rem; }
  .promptpay-mark { margin: 0; font-size: 1.35rem; font-weight: 800; font-style: italic; letter-spacing: -.01em; }
  .pp-prompt { color: #0b3b63; } .pp-pay { color: #1565c0; }
  #promptpay-image { display: block; margin: .5rem auto; width: 15rem; height: 15rem; max-width: 100%; image-rendering: pixelated; }
  .qr-merchant { margin: .25rem 0 0; font-weight: 600; overflow-wrap: anywhere; }
  .qr-amount { margin: 0; font-size: 1.5rem; font-weight: 700; }
  a.cancel { display: block; text-align: center; margin-top: 1.25rem; color: #334155; }
`;

/**
 * The hosted checkout page. Server-rendered; its script reads the one-time session from the URL
 * fragment (never sent to a server), keeps it in sessionStorage for reloads, removes it from the
 * address bar and sends it as X-Session-Token to the session-only endpoints.
 */
export function checkoutPage(input: CheckoutPageInput): string {
  const t = fill(TEXT[input.locale], input.merchant);
  const config = {
    api: `/api/v1/${encodeURIComponent(input.slug)}/platform/wallet`,
    vault: `/api/v1/${encodeURIComponent(input.slug)}/vault/tokens`,
    cardEntry: input.cardEntry,
    notice: input.notice ?? null,
    checkout: input.checkoutId,
    country: input.country,
    successUrl: input.successUrl,
    livemode: input.livemode,
    locale: intlLocale(input.locale),
    t: SCRIPT_TEXT[input.locale],
  };
  return renderHostedPage(
    '@checkout',
    {
      nonce: input.nonce,
      locale: input.locale,
      title: t.title,
      style: STYLE,
      brand: t.brand,
      livemode: input.livemode,
      query: input.query,
      script: input.status === 'open' ? pageScript(config) + statusScript(input) : undefined,
    },
    {
      t,
      merchant: input.merchant,
      amount: formatMoney(input.amount, input.currency, input.scalingFactor, input.locale),
      description: input.description,
      status: input.status,
      card: input.paymentMethodTypes.includes('card'),
      // Omise.js tokens carry the cardholder's name (Opn requires it).
      cardName: input.cardEntry.provider === 'opn',
      // Stripe's Payment Element takes the card in its own frame: no card fields of this page.
      cardElement: input.cardEntry.provider === 'stripe',
      promptpay: input.paymentMethodTypes.includes('promptpay'),
      cancelUrl: input.cancelUrl,
      livemode: input.livemode,
    },
  );
}

/**
 * The page's script. Card details are read in one place, `cardPayment()`, and sent to one place:
 * the card vault (test mode), which answers a single-use token, or the provider's own script
 * (Opn: Omise.js, which posts them to vault.omise.co and answers `tokn_…`); the payment API gets
 * only the token. With Stripe the Payment Element (Stripe's frame) takes the card and
 * `stripe.confirmPayment` pays the PaymentIntent the page asked for; the page never reads it. A charge that needs 3-D Secure comes back pending with a `redirect_to_url` next
 * action: the page sends the payer there, and the provider sends them back to
 * /provider_returns/{provider}/{charge id}.
 */
function pageScript(config: { checkout: string } & Record<string, unknown>): string {
  return `
(() => {
  const config = ${scriptJson(config)};${sessionFromFragmentScript(`wallet-checkout-session:${config.checkout}`)}
  const t = config.t;
  const busy = (on) => document.querySelectorAll('button').forEach((b) => { b.disabled = on; });
  if (!token) show(t.incomplete, 'error');
  else if (config.notice) show(config.notice, 'error');
  const entry = config.cardEntry;
  // The provider's script, loaded at once so it is ready when the payer presses Pay.
  const tokenizer = entry.provider === 'vault' ? null : new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = entry.script;
    const loaded = () => entry.provider === 'opn' ? window.Omise : window.Stripe;
    script.onload = () => loaded() ? resolve(loaded()) : reject(new Error(t.notProcessed));
    script.onerror = () => reject(new Error(t.notProcessed));
    document.head.appendChild(script);
  });
  if (tokenizer) tokenizer.catch(() => {});
  // Stripe: the Payment Element on a PaymentIntent this page's session asks for.
  const element = entry.provider !== 'stripe' || !token ? null : (async () => {
    const Stripe = await tokenizer;
    const response = await fetch(entry.intent, { method: 'POST', headers: { 'X-Session-Token': token } });
    const json = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(json.code === 'E1212' ? t.sessionInvalid : (json.message || t.notProcessed));
    const stripe = Stripe(entry.publishableKey);
    const elements = stripe.elements({ clientSecret: json.client_secret });
    elements.create('payment').mount('#payment-element');
    return { stripe, elements, returnUrl: json.return_url };
  })();
  if (element) element.catch((error) => show(error.message, 'error'));

  // One payment method at a time: a tab list (arrow keys, Home and End move between tabs).
  const tabs = Array.from(document.querySelectorAll('[role=tab]'));
  const select = (tab, focus) => {
    tabs.forEach((other) => {
      const on = other === tab;
      other.setAttribute('aria-selected', on ? 'true' : 'false');
      other.tabIndex = on ? 0 : -1;
      document.getElementById(other.getAttribute('aria-controls')).hidden = !on;
    });
    if (focus) tab.focus();
  };
  tabs.forEach((tab, i) => {
    tab.addEventListener('click', () => select(tab, false));
    tab.addEventListener('keydown', (event) => {
      const next = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: tabs.length - 1 }[event.key];
      if (next === undefined) return;
      event.preventDefault();
      select(tabs[(next + tabs.length) % tabs.length], true);
    });
  });

  async function call(path, body) {
    const response = await fetch(path.startsWith('/api/') ? path : config.api + path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Session-Token': token || '', 'X-Country': config.country },
      body: JSON.stringify(body || {}),
    });
    const json = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(json.code === 'E1212' ? t.sessionInvalid : (json.message || t.notProcessed));
    return json;
  }

  function finish(result) {
    const charge = result.charge;
    const redirect = charge.status === 'pending' &&
      (charge.next_action || []).find((action) => action.type === 'redirect_to_url' && action.url);
    if (redirect) { location.assign(redirect.url); return; }
    if (charge.status === 'succeeded') {
      sessionStorage.removeItem(key);
      show(t.received, 'done');
      document.querySelectorAll('form, button, #promptpay-qr, [role=tablist], #promptpay-hint').forEach((e) => { e.hidden = true; });
      if (result.redirect_url) location.assign(result.redirect_url);
      return;
    }
    if (charge.status === 'failed') {
      const declined = charge.failure_code === 'card_declined' && t.declined;
      show(declined || charge.failure_message || t.failed, 'error');
      return;
    }
    if (charge.status === 'pending' && charge.promptpay) {
      document.getElementById('promptpay-image').src = charge.promptpay.image;
      document.getElementById('promptpay-expiry').textContent =
        new Date(charge.promptpay.expires_at).toLocaleTimeString(config.locale, { hour: '2-digit', minute: '2-digit' });
      document.getElementById('pay-promptpay').hidden = true;
      document.getElementById('promptpay-hint').hidden = true;
      document.getElementById('promptpay-qr').hidden = false;
      message.hidden = true;
    }
  }

  async function attempt(path, body) {
    busy(true);
    try { finish(await call(path, body)); }
    catch (error) { show(error.message, 'error'); }
    finally { busy(false); }
  }

  // The card details the vault takes; null (after showing why) when they are not usable.
  function cardPayment() {
    const expiry = document.getElementById('card-expiry').value.trim().match(/^(\\d{1,2})\\s*\\/\\s*(\\d{2}|\\d{4})$/);
    if (!expiry) { show(t.expiryFormat, 'error'); document.getElementById('card-expiry').focus(); return null; }
    return {
      card: {
        number: document.getElementById('card-number').value,
        exp_month: Number(expiry[1]),
        exp_year: Number(expiry[2]),
        cvc: document.getElementById('card-cvc').value.trim(),
      },
    };
  }

  // Omise.js: the card goes to Opn's vault in the browser; Opn answers a tokn_… (or why not).
  async function omiseToken(card) {
    const Omise = await tokenizer;
    Omise.setPublicKey(entry.publicKey);
    return new Promise((resolve, reject) => Omise.createToken('card', {
      name: document.getElementById('card-name').value.trim(),
      number: card.number.replace(/[\\s-]/g, ''),
      expiration_month: card.exp_month,
      expiration_year: card.exp_year < 100 ? 2000 + card.exp_year : card.exp_year,
      security_code: card.cvc,
    }, (status, response) => {
      if (status === 200 && response && typeof response.id === 'string') resolve(response.id);
      else reject(new Error((response && response.message) || t.notProcessed));
    }));
  }

  // The card goes to the tokenizer only; the payment API gets the single-use token it answers.
  async function payByCard(card) {
    busy(true);
    try {
      const id = entry.provider === 'opn' ? await omiseToken(card.card) : (await call(config.vault, card)).id;
      finish(await call('/checkouts/' + config.checkout + '/confirm', { payment_method_type: 'card', token: id }));
    } catch (error) { show(error.message, 'error'); }
    finally { busy(false); }
  }

  // Stripe confirms with the card it took; it sends the payer to the return route (3-D Secure or not).
  async function payByElement() {
    busy(true);
    try {
      const { stripe, elements, returnUrl } = await element;
      const { error } = await stripe.confirmPayment({ elements, confirmParams: { return_url: returnUrl } });
      if (error) show(error.message || t.notProcessed, 'error');
    } catch (error) { show(error.message, 'error'); }
    finally { busy(false); }
  }

  const form = document.getElementById('card-form');
  if (form) form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (element) { payByElement(); return; }
    const card = cardPayment();
    if (card) payByCard(card);
  });
  const promptpay = document.getElementById('pay-promptpay');
  if (promptpay) promptpay.addEventListener('click', () =>
    attempt('/checkouts/' + config.checkout + '/confirm', { payment_method_type: 'promptpay' }));
${
  config.livemode
    ? ''
    : `  const simulate = document.getElementById('promptpay-simulate');
  if (simulate) simulate.addEventListener('click', () =>
    attempt('/test_helpers/checkouts/' + config.checkout + '/pay_promptpay'));
`
}})();
`;
}

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
function statusScript(input: CheckoutPageInput): string {
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
    .querySelectorAll('form, button, #promptpay-qr, [role=tablist], #promptpay-hint, a.cancel')
    .forEach((e) => { e.hidden = true; });
  const tick = async () => {
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
          if (now.redirect_url) { location.assign(now.redirect_url); return; }
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

const REDIRECT_TEXT = {
  en: { title: 'Opening checkout', heading: 'Opening checkout', message: 'Opening the checkout…' },
  th: { title: 'กำลังเปิดหน้าชำระเงิน', heading: 'กำลังเปิดหน้าชำระเงิน', message: 'กำลังเปิดหน้าชำระเงิน…' },
} satisfies Record<HostedLocale, Record<string, string>>;

/** Sends the browser on to the fresh checkout; the session stays in the fragment, out of logs and headers. */
export function redirectPage(nonce: string, locale: HostedLocale, url: string): string {
  const text = REDIRECT_TEXT[locale];
  return scriptRedirectPage({ nonce, locale, title: text.title }, url, text);
}

const ERROR_TEXT = {
  en: {
    checkoutNotFound: ['Checkout not found', 'This checkout link is not valid.'],
    linkNotFound: ['Payment link not found', 'This payment link is not valid.'],
    linkUnpayable: ['This link cannot be paid', ''],
  },
  th: {
    checkoutNotFound: ['ไม่พบรายการชำระเงิน', 'ลิงก์ชำระเงินนี้ไม่ถูกต้อง'],
    linkNotFound: ['ไม่พบลิงก์ชำระเงิน', 'ลิงก์ชำระเงินนี้ไม่ถูกต้อง'],
    linkUnpayable: ['ลิงก์นี้ไม่สามารถชำระเงินได้', ''],
  },
} satisfies Record<HostedLocale, Record<string, [string, string]>>;

/** A page with nothing to pay: an unknown checkout or link, or one that cannot be paid (`detail` says why). */
export function checkoutErrorPage(
  nonce: string,
  locale: HostedLocale,
  which: keyof (typeof ERROR_TEXT)['en'],
  detail = '',
): string {
  const [heading, message] = ERROR_TEXT[locale][which];
  return hostedErrorPage({ nonce, locale, title: heading }, heading, message || detail);
}
