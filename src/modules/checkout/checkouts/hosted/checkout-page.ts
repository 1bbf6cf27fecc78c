import {
  escapeHtml as escape,
  hostedPage,
  scriptJson,
  scriptRedirectPage,
  sessionFromFragmentScript,
  testModeBanner,
} from '../../../../common/http/hosted-page.js';

export interface CheckoutPageInput {
  nonce: string;
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
}

/** `THB 1,234.50`: the amount in major units with the currency's own number of decimals. */
export function formatAmount(amount: number, currency: string, scalingFactor: number): string {
  const digits = Math.round(Math.log10(scalingFactor));
  const major = (amount / scalingFactor).toLocaleString('en-US', {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
  return `${currency} ${major}`;
}

const STYLE = `
  main { background: #fff; padding: 2rem; border-radius: 8px; box-shadow: 0 1px 4px rgba(0,0,0,.12); width: 100%; max-width: 24rem; }
  h1 { font-size: 1.1rem; margin: 0; color: #444; font-weight: 600; }
  .amount { font-size: 2rem; font-weight: 700; margin: .25rem 0 1rem; }
  input { width: 100%; box-sizing: border-box; padding: .55rem; margin-top: .25rem; font-size: 1rem; border: 1px solid #bbb; border-radius: 4px; }
  .row { display: flex; gap: .75rem; } .row > div { flex: 1; }
  button.secondary { background: #0f766e; }
  .or { text-align: center; color: #777; margin: 1.25rem 0 0; }
  .done { color: #065f46; background: #ecfdf5; padding: .75rem; border-radius: 4px; }
  #promptpay-qr img { display: block; margin: 1rem auto; width: 16rem; height: 16rem; }
  #promptpay-qr code { display: block; word-break: break-all; font-size: .7rem; color: #555; }
  a.cancel { display: block; text-align: center; margin-top: 1.25rem; color: #555; }
`;

/**
 * The hosted checkout page. Server-rendered; its script reads the one-time session from the URL
 * fragment (never sent to a server), keeps it in sessionStorage for reloads, removes it from the
 * address bar and sends it as X-Session-Token to the session-only endpoints.
 */
export function checkoutPage(input: CheckoutPageInput): string {
  const amount = formatAmount(input.amount, input.currency, input.scalingFactor);
  const card = input.paymentMethodTypes.includes('card');
  const promptpay = input.paymentMethodTypes.includes('promptpay');
  const cancel = input.cancelUrl
    ? `<a class="cancel" href="${escape(input.cancelUrl)}">Cancel and return to ${escape(input.merchant)}</a>`
    : '';
  let body: string;
  if (input.status === 'complete') {
    body = '<p class="done" role="status">This checkout has been paid. Thank you.</p>';
  } else if (input.status === 'expired') {
    body = '<p class="error" role="alert">This checkout has expired and can no longer be paid.</p>';
  } else {
    body = `
    <p id="message" role="alert" hidden></p>
    ${
      card
        ? `<form id="card-form" novalidate>
      <label for="card-number">Card number</label>
      <input id="card-number" name="card-number" inputmode="numeric" autocomplete="cc-number" placeholder="4242 4242 4242 4242" required>
      <div class="row">
        <div><label for="card-expiry">Expiry</label>
        <input id="card-expiry" name="card-expiry" autocomplete="cc-exp" placeholder="MM/YY" required></div>
        <div><label for="card-cvc">CVC</label>
        <input id="card-cvc" name="card-cvc" inputmode="numeric" autocomplete="cc-csc" placeholder="123" required></div>
      </div>
      <button id="pay-card" type="submit">Pay</button>
    </form>`
        : ''
    }
    ${
      promptpay
        ? `${card ? '<p class="or">or</p>' : ''}
    <button id="pay-promptpay" class="secondary" type="button">Pay with PromptPay</button>
    <section id="promptpay-qr" hidden aria-label="PromptPay QR code">
      <img id="promptpay-image" alt="PromptPay QR code to scan with a banking app">
      <p>Scan with your banking app. The code is valid until <span id="promptpay-expiry"></span>.</p>
      <code id="promptpay-payload"></code>
      ${input.livemode ? '' : '<button id="promptpay-simulate" type="button">Simulate PromptPay payment (test mode)</button>'}
    </section>`
        : ''
    }
    ${cancel}`;
  }
  const config = {
    api: `/api/v1/${encodeURIComponent(input.slug)}/platform/wallet`,
    checkout: input.checkoutId,
    country: input.country,
    successUrl: input.successUrl,
  };
  return hostedPage({
    nonce: input.nonce,
    title: `Pay ${input.merchant}`,
    style: STYLE,
    main: `    <h1>Pay ${escape(input.merchant)}</h1>
    <p class="amount" id="amount">${escape(amount)}</p>
    ${input.description ? `<p>${escape(input.description)}</p>` : ''}
    ${testModeBanner(input.livemode)}
    ${body}`,
    script: input.status === 'open' ? pageScript(config) : undefined,
  });
}

function pageScript(config: { api: string; checkout: string; country: string; successUrl: string | null }): string {
  return `
(() => {
  const config = ${scriptJson(config)};${sessionFromFragmentScript(`wallet-checkout-session:${config.checkout}`)}
  const busy = (on) => document.querySelectorAll('button').forEach((b) => { b.disabled = on; });
  if (!token) show('This payment link is incomplete: open the full link you were given.', 'error');

  async function call(path, body) {
    const response = await fetch(config.api + path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Session-Token': token || '', 'X-Country': config.country },
      body: JSON.stringify(body || {}),
    });
    const json = await response.json().catch(() => ({}));
    if (!response.ok) {
      const text = json.code === 'E1212'
        ? 'This payment session is no longer valid. It may have been paid or expired.'
        : (json.message || 'The payment could not be processed.');
      throw new Error(text);
    }
    return json;
  }

  function finish(result) {
    const charge = result.charge;
    if (charge.status === 'succeeded') {
      sessionStorage.removeItem(key);
      show('Payment received. Thank you.', 'done');
      document.querySelectorAll('form, button, #promptpay-qr').forEach((e) => { e.hidden = true; });
      if (result.redirect_url) location.assign(result.redirect_url);
      return;
    }
    if (charge.status === 'failed') {
      show(charge.failure_message || 'The payment failed.', 'error');
      return;
    }
    if (charge.status === 'pending' && charge.promptpay) {
      document.getElementById('promptpay-image').src = charge.promptpay.image;
      document.getElementById('promptpay-payload').textContent = charge.promptpay.raw;
      document.getElementById('promptpay-expiry').textContent = new Date(charge.promptpay.expires_at).toLocaleTimeString();
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

  const form = document.getElementById('card-form');
  if (form) form.addEventListener('submit', (event) => {
    event.preventDefault();
    const expiry = document.getElementById('card-expiry').value.trim().match(/^(\\d{1,2})\\s*\\/\\s*(\\d{2}|\\d{4})$/);
    if (!expiry) { show('Enter the expiry as MM/YY.', 'error'); return; }
    attempt('/checkouts/' + config.checkout + '/confirm', {
      payment_method_type: 'card',
      card: {
        number: document.getElementById('card-number').value,
        exp_month: Number(expiry[1]),
        exp_year: Number(expiry[2]),
        cvc: document.getElementById('card-cvc').value.trim(),
      },
    });
  });
  const promptpay = document.getElementById('pay-promptpay');
  if (promptpay) promptpay.addEventListener('click', () =>
    attempt('/checkouts/' + config.checkout + '/confirm', { payment_method_type: 'promptpay' }));
  const simulate = document.getElementById('promptpay-simulate');
  if (simulate) simulate.addEventListener('click', () =>
    attempt('/test_helpers/checkouts/' + config.checkout + '/pay_promptpay'));
})();
`;
}

/** Sends the browser on to the fresh checkout; the session stays in the fragment, out of logs and headers. */
export function redirectPage(nonce: string, url: string): string {
  return scriptRedirectPage(nonce, url, 'Opening checkout', '<p>Opening the checkout…</p>');
}
