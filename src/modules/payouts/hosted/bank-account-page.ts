import {
  escapeHtml as escape,
  hostedErrorPage,
  hostedPage,
  hostedPagePolicy,
  scriptJson,
  scriptRedirectPage,
  sessionFromFragmentScript,
  testModeBanner,
} from '../../../common/http/hosted-page.js';
import { THAI_BANKS, type ThaiBank } from '../thai-banks.js';

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
export const pagePolicy = (nonce: string) => hostedPagePolicy(nonce, "'self'");

const STYLE = `
  main { background: #fff; padding: 2rem; border-radius: 8px; box-shadow: 0 1px 4px rgba(0,0,0,.12); width: 100%; max-width: 26rem; }
  h1 { font-size: 1.25rem; margin: 0 0 .5rem; }
  p.lead { color: #444; margin: 0 0 1rem; }
  input, select { width: 100%; box-sizing: border-box; padding: .55rem; margin-top: .25rem; font-size: 1rem; border: 1px solid #bbb; border-radius: 4px; background: #fff; }
  .hint { color: #666; font-size: .85rem; margin: .25rem 0 0; }
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
  return hostedPage({
    nonce: input.nonce,
    title: `Add a bank account – ${input.payer}`,
    style: STYLE,
    main: `    <h1>Add a bank account${forWhom}</h1>
    <p class="lead">${escape(input.payer)} will send payouts to this Thai baht account.</p>
    ${testModeBanner(input.livemode)}
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
    </form>`,
    script: pageScript(config),
  });
}

function pageScript(config: { intent: string } & Record<string, unknown>): string {
  return `
(() => {
  const config = ${scriptJson(config)};${sessionFromFragmentScript(`wallet-bank-account-intent:${config.intent}`)}
  const form = document.getElementById('bank-account-form');
  const button = document.getElementById('save');
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
  return hostedErrorPage('Link not found', 'This bank account link does not exist. Ask for a new link.');
}

/**
 * Sends a used or expired link on to `refresh_url`. A script navigation, not an HTTP redirect:
 * browsers carry the fragment (the spent session) across a 3xx to the partner's page.
 */
export function refreshPage(nonce: string, refreshUrl: string): string {
  const body = `<main><h1>This link has expired</h1><p>Taking you back to get a new one… <a id="refresh" href="${escape(refreshUrl)}">Continue</a></p></main>\n`;
  return scriptRedirectPage(nonce, refreshUrl, 'Link expired', body);
}
