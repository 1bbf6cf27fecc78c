import { scriptJson, sessionFromFragmentScript, type HostedLocale } from '../../../common/http/hosted-page.js';

/** The strings the page's script shows. */
export const SCRIPT_TEXT = {
  en: {
    incomplete: 'This payment link is incomplete: open the full link you were given.',
    sessionInvalid: 'This payment session is no longer valid. It may have been paid or expired.',
    notProcessed: 'The payment could not be processed.',
    received: 'Payment received. Thank you.',
    failed: 'The payment failed.',
    declined: null,
    expiryFormat: 'Enter the expiry as MM/YY.',
    notSaved: 'The card could not be saved.',
    codeApplied: 'Promotion code {code} applied: {discount} off.',
  },
  th: {
    incomplete: 'ลิงก์ชำระเงินนี้ไม่ครบถ้วน กรุณาเปิดลิงก์เต็มที่คุณได้รับ',
    sessionInvalid: 'รายการชำระเงินนี้ใช้ไม่ได้แล้ว อาจชำระแล้วหรือหมดอายุ',
    notProcessed: 'ไม่สามารถดำเนินการชำระเงินได้',
    received: 'ได้รับการชำระเงินแล้ว ขอบคุณ',
    failed: 'การชำระเงินไม่สำเร็จ',
    declined: 'บัตรของคุณถูกปฏิเสธ',
    expiryFormat: 'กรุณากรอกวันหมดอายุในรูปแบบ ดด/ปป',
    notSaved: 'ไม่สามารถบันทึกบัตรได้',
    codeApplied: 'ใช้โค้ดส่วนลด {code} แล้ว ลด {discount}',
  },
} satisfies Record<HostedLocale, Record<string, string | null>>;

/**
 * The page's script. Card details are read in one place, `cardPayment()`, and sent to one place:
 * the card vault (test mode), which answers a single-use token, or the provider's own script
 * (Opn: Omise.js, which posts them to vault.omise.co and answers `tokn_…`); the payment API gets
 * only the token. With Stripe the Payment Element (Stripe's frame) takes the card and
 * `stripe.confirmPayment` pays the PaymentIntent the page asked for; the page never reads it (a setup checkout: `stripe.confirmSetup` confirms a SetupIntent and the page sends its `seti_…` to the confirm endpoint, also on the return from 3-D Secure, `?setup_intent=`). A charge that needs 3-D Secure comes back pending with a `redirect_to_url` next
 * action: the page sends the payer there, and the provider sends them back to
 * /provider_returns/{provider}/{charge id}.
 */
export function pageScript(config: { checkout: string } & Record<string, unknown>): string {
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
    return { stripe, elements, returnUrl: json.return_url, setup: json.setup === true };
  })();
  if (element) element.catch((error) => show(error.message, 'error'));
  // A setup checkout whose card needed 3-D Secure: Stripe sent the payer back here with the SetupIntent.
  const returnedSetup = entry.provider === 'stripe' && new URLSearchParams(location.search).get('setup_intent');

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
    const response = await fetch(path.startsWith('/api/') || path.startsWith('/pay/') ? path : config.api + path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Session-Token': token || '', 'X-Country': config.country },
      body: JSON.stringify(body || {}),
    });
    const json = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(json.code === 'E1212' ? t.sessionInvalid : (json.message || t.notProcessed));
    return json;
  }

  // The page leaves once: the confirm's answer and the status poll (the other script) can both see
  // the checkout paid; a second location.assign would abort the first navigation.
  function leave(url) {
    if (document.documentElement.dataset.leaving) return;
    document.documentElement.dataset.leaving = 'true';
    location.assign(url);
  }

  function finish(result) {
    // A setup checkout answers the saved card: nothing was charged.
    const charge = result.object === 'checkout_setup' ? { status: 'succeeded' } : result.charge;
    const redirect = charge.status === 'pending' &&
      (charge.next_action || []).find((action) => action.type === 'redirect_to_url' && action.url);
    if (redirect) { leave(redirect.url); return; }
    // An authorization (manual capture) is the buyer's payment accepted: the merchant captures later.
    if (charge.status === 'succeeded' || charge.status === 'requires_capture') {
      sessionStorage.removeItem(key);
      show(t.received, 'done');
      document.querySelectorAll('form, button, #promptpay-qr, #other-qr, [role=tablist], #promptpay-hint, #saved-card-hint, .method-group').forEach((e) => { e.hidden = true; });
      if (result.redirect_url) leave(result.redirect_url);
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
    // Another QR flow (PayNow): its code, from the display_qr_code next action.
    const qr = charge.status === 'pending' &&
      (charge.next_action || []).find((action) => action.type === 'display_qr_code' && action.url);
    if (qr) {
      pendingCharge = charge.id;
      document.getElementById('other-qr-image').src = qr.url;
      document.querySelectorAll('.method-group').forEach((e) => { e.hidden = true; });
      document.getElementById('other-qr').hidden = false;
      message.hidden = true;
    }
  }
  let pendingCharge = null;
  // Redirect flows: a phone tells the provider so, which answers the app's deep link instead of its web page.
  const platform = /iPhone|iPad|iPod/.test(navigator.userAgent) ? 'ios' : /Android/.test(navigator.userAgent) ? 'android' : null;

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
      const { stripe, elements, returnUrl, setup } = await element;
      if (setup) {
        // A setup checkout: Stripe saves the card to the SetupIntent, the service reads it back from Stripe.
        const here = location.origin + location.pathname;
        const { error, setupIntent } = await stripe.confirmSetup({ elements, redirect: 'if_required', confirmParams: { return_url: here } });
        if (error) { show(error.message || t.notSaved, 'error'); return; }
        finish(await call('/checkouts/' + config.checkout + '/confirm', { payment_method_type: 'card', token: setupIntent.id }));
        return;
      }
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
  if (token && returnedSetup) attempt('/checkouts/' + config.checkout + '/confirm', { payment_method_type: 'card', token: returnedSetup });
  // The saved card of an off-session payment that needs authentication: confirmed with that card, then 3-D Secure.
  const savedCard = document.getElementById('pay-saved-card');
  if (savedCard && config.savedCard) savedCard.addEventListener('click', () =>
    attempt('/checkouts/' + config.checkout + '/confirm', { payment_method_type: 'card', payment_method: config.savedCard }));
  // The promotion code field: the service redeems the code and prices the first invoice again.
  const promotion = document.getElementById('promotion-form');
  if (promotion && config.promotionCode) promotion.addEventListener('submit', async (event) => {
    event.preventDefault();
    busy(true);
    try {
      const result = await call(config.promotionCode, { code: document.getElementById('promotion-code').value.trim() });
      document.querySelectorAll('#amount, #qr-amount').forEach((e) => { e.textContent = result.amount_text; });
      promotion.hidden = true;
      show(t.codeApplied.replace('{code}', result.code).replace('{discount}', result.discount_text), 'done');
    } catch (error) { show(error.message, 'error'); }
    finally { busy(false); }
  });
  // The registry's other types: one button each (installments with the term chosen beside it).
  document.querySelectorAll('button.pay-method').forEach((button) => button.addEventListener('click', () => {
    const type = button.dataset.type;
    const body = { payment_method_type: type };
    if (platform && button.dataset.flow === 'redirect') body.platform = platform;
    const term = document.getElementById('term-' + type);
    if (term) body.installment_term = Number(term.value);
    const bank = document.getElementById('bank-' + type);
    if (bank && !bank.checkValidity()) { bankMissing(bank, true); return; }
    if (bank) body.bank = bank.value;
    attempt('/checkouts/' + config.checkout + '/confirm', body);
  }));
  // A bank select still on its placeholder: the message under it, tied to it, and the focus on it.
  function bankMissing(bank, missing) {
    const note = document.getElementById(bank.id + '-error');
    note.hidden = !missing;
    if (missing) {
      bank.setAttribute('aria-invalid', 'true');
      bank.setAttribute('aria-describedby', note.id);
      bank.focus();
    } else {
      bank.removeAttribute('aria-invalid');
      bank.removeAttribute('aria-describedby');
    }
  }
  document.querySelectorAll('select[id^="bank-"]').forEach((bank) =>
    bank.addEventListener('change', () => bankMissing(bank, false)));
  const promptpay = document.getElementById('pay-promptpay');
  if (promptpay) promptpay.addEventListener('click', () =>
    attempt('/checkouts/' + config.checkout + '/confirm', { payment_method_type: 'promptpay' }));
${
  config.livemode
    ? ''
    : `  const simulate = document.getElementById('promptpay-simulate');
  if (simulate) simulate.addEventListener('click', () =>
    attempt('/test_helpers/checkouts/' + config.checkout + '/pay_promptpay'));
  const simulateOther = document.getElementById('other-simulate');
  if (simulateOther) simulateOther.addEventListener('click', async () => {
    busy(true);
    try {
      const charge = await call('/test_helpers/charges/' + pendingCharge + '/succeed');
      finish({ charge, redirect_url: charge.status === 'succeeded' && config.successUrl ? config.successUrl.replaceAll('{CHECKOUT_ID}', config.checkout) : null });
    } catch (error) { show(error.message, 'error'); }
    finally { busy(false); }
  });
`
}})();
`;
}
