import { THAI_BANKS, type ThaiBank } from '../thai-banks.js';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escape = (value: string) => value.replace(/[&<>"']/g, (c) => ESCAPES[c]);
/** JSON for an inline script: `<` escaped so no value can close the script element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

export interface BankAccountPageInput {
  nonce: string;
  /** Who pays out to this bank account (the application's name). */
  payer: string;
  /** The connected account's name, when the page is for one. */
  accountName: string | null;
  slug: string;
  intentId: string;
  accountId: string;
  country: string;
  livemode: boolean;
  returnUrl: string;
  refreshUrl: string;
}

/** The page's Content-Security-Policy: only its own inline code (by nonce) and calls to this origin. */
export const pagePolicy = (nonce: string) =>
  `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; connect-src 'self'; ` +
  "img-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'";

const STYLE = `
  body { font-family: system-ui, sans-serif; background: #f4f5f7; display: flex; justify-content: center; padding: 6vh 1rem; margin: 0; color: #111; }
  main { background: #fff; padding: 2rem; border-radius: 8px; box-shadow: 0 1px 4px rgba(0,0,0,.12); width: 100%; max-width: 26rem; }
  h1 { font-size: 1.25rem; margin: 0 0 .5rem; }
  p.lead { color: #444; margin: 0 0 1rem; }
  .test { background: #fff7e6; color: #8a5300; padding: .25rem .5rem; border-radius: 4px; display: inline-block; font-size: .8rem; margin-bottom: 1rem; }
  label { display: block; font-weight: 600; margin-top: .9rem; }
  input, select { width: 100%; box-sizing: border-box; padding: .55rem; margin-top: .25rem; font-size: 1rem; border: 1px solid #bbb; border-radius: 4px; background: #fff; }
  .hint { color: #666; font-size: .85rem; margin: .25rem 0 0; }
  button { margin-top: 1.25rem; width: 100%; padding: .65rem; font-size: 1rem; background: #1a56db; color: #fff; border: 0; border-radius: 4px; cursor: pointer; }
  button:disabled { opacity: .6; cursor: default; }
  .error { color: #b91c1c; background: #fef2f2; padding: .5rem; border-radius: 4px; }
  .done { color: #065f46; background: #ecfdf5; padding: .5rem; border-radius: 4px; }
`;

const option = (bank: ThaiBank) =>
  `<option value="${bank.code}" data-lengths="${bank.lengths.join(',')}">${escape(bank.name)} (${bank.short})</option>`;

/**
 * The hosted create-bank-account page. Server-rendered; its script reads the one-time session
 * from the URL fragment (never sent to a server), keeps it in sessionStorage for reloads, removes
 * it from the address bar and sends it as X-Session-Token when saving.
 */
export function bankAccountPage(input: BankAccountPageInput): string {
  const config = {
    api: `/api/v1/${encodeURIComponent(input.slug)}/platform/wallet`,
    intent: input.intentId,
    account: input.accountId,
    country: input.country,
    testMode: !input.livemode,
    returnUrl: input.returnUrl,
    refreshUrl: input.refreshUrl,
  };
  const forWhom = input.accountName ? ` for ${escape(input.accountName)}` : '';
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="referrer" content="no-referrer">
  <title>Add a bank account – ${escape(input.payer)}</title>
  <style nonce="${input.nonce}">${STYLE}</style>
</head>
<body>
  <main>
    <h1>Add a bank account${forWhom}</h1>
    <p class="lead">${escape(input.payer)} will send payouts to this Thai baht account.</p>
    ${input.livemode ? '' : '<p class="test">Test mode: no real money moves.</p>'}
    <p id="message" role="alert" hidden></p>
    <form id="bank-account-form" novalidate>
      <label for="bank">Bank</label>
      <select id="bank" name="bank" required>
        <option value="">Choose your bank</option>
        ${THAI_BANKS.map(option).join('\n        ')}
      </select>
      <label for="account-number">Account number</label>
      <input id="account-number" name="account-number" inputmode="numeric" autocomplete="off" required aria-describedby="account-number-hint">
      <p class="hint" id="account-number-hint">Digits only, as printed in your bank book.</p>
      <label for="account-holder-name">Account holder name</label>
      <input id="account-holder-name" name="account-holder-name" autocomplete="name" maxlength="140" required>
      <button id="save" type="submit">Save bank account</button>
    </form>
  </main>
  <script nonce="${input.nonce}">${pageScript(config)}</script>
</body>
</html>
`;
}

function pageScript(config: Record<string, unknown>): string {
  return `
(() => {
  const config = ${scriptJson(config)};
  const key = 'wallet-bank-account-intent:' + config.intent;
  const fragment = new URLSearchParams(location.hash.slice(1)).get('session');
  if (fragment) {
    sessionStorage.setItem(key, fragment);
    history.replaceState(null, '', location.pathname + location.search);
  }
  const token = sessionStorage.getItem(key);
  const message = document.getElementById('message');
  const form = document.getElementById('bank-account-form');
  const button = document.getElementById('save');
  const show = (text, kind) => { message.textContent = text; message.className = kind; message.hidden = false; };
  if (!token) { show('This link is incomplete: open the full link you were given.', 'error'); button.disabled = true; }

  const FRIENDLY = {
    E6103: 'Choose your bank from the list.',
    E6104: 'This account number does not match the chosen bank.',
    E1304: 'This account cannot receive payouts until its verification is complete.',
  };

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const bank = document.getElementById('bank');
    const number = document.getElementById('account-number').value.replace(/[\\s-]/g, '');
    const name = document.getElementById('account-holder-name').value.trim();
    if (!bank.value) { show('Choose your bank.', 'error'); bank.focus(); return; }
    const lengths = bank.selectedOptions[0].dataset.lengths.split(',').map(Number);
    if (!/^\\d+$/.test(number) || !lengths.includes(number.length)) {
      show('The account number must be ' + lengths.join(' or ') + ' digits for this bank.', 'error');
      document.getElementById('account-number').focus();
      return;
    }
    if (!name) { show('Enter the account holder name.', 'error'); document.getElementById('account-holder-name').focus(); return; }
    button.disabled = true;
    try {
      const response = await fetch(config.api + '/bank_accounts', {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'X-Session-Token': token || '',
          'X-Country': config.country,
          'X-Test-Mode': config.testMode ? 'true' : 'false',
        },
        body: JSON.stringify({
          account: config.account,
          type: 'bookbank',
          account_holder_name: name,
          target: 'THB',
          extra_fields: { bankCode: bank.value, accountNumber: number },
        }),
      });
      const json = await response.json().catch(() => ({}));
      if (response.ok) {
        sessionStorage.removeItem(key);
        show('Bank account saved.', 'done');
        location.assign(config.returnUrl);
        return;
      }
      if (json.code === 'E1212' || json.code === 'E6202') {
        sessionStorage.removeItem(key);
        location.assign(config.refreshUrl);
        return;
      }
      show(FRIENDLY[json.code] || json.message || 'The bank account could not be saved.', 'error');
    } catch {
      show('The bank account could not be saved. Check your connection and try again.', 'error');
    }
    button.disabled = false;
  });
})();
`;
}

/** A link that names no intent. */
export function notFoundPage(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Link not found</title></head>
<body><main><h1>Link not found</h1><p role="alert">This bank account link does not exist. Ask for a new link.</p></main></body></html>
`;
}

/**
 * Sends a used or expired link on to `refresh_url`. A script navigation, not an HTTP redirect:
 * browsers carry the fragment (the spent session) across a 3xx to the partner's page.
 */
export function refreshPage(nonce: string, refreshUrl: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="referrer" content="no-referrer"><title>Link expired</title></head>
<body><main><h1>This link has expired</h1><p>Taking you back to get a new one… <a id="refresh" href="${escape(refreshUrl)}">Continue</a></p></main>
<script nonce="${nonce}">location.replace(${scriptJson(refreshUrl)});</script></body></html>
`;
}
