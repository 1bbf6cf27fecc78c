import {
  hostedErrorPage,
  hostedPagePolicy,
  registerHostedTemplate,
  renderHostedPage,
  scriptJson,
  scriptRedirectPage,
  sessionFromFragmentScript,
  type HostedLocale,
} from '../../../common/http/hosted-page.js';
import { THAI_BANKS } from '../../../providers/ports/thai-banks.js';
import { BANK_ACCOUNT_TEMPLATE } from './templates/bank-account.template.js';

registerHostedTemplate('@bank-account', BANK_ACCOUNT_TEMPLATE);

export interface BankAccountPageInput {
  nonce: string;
  locale: HostedLocale;
  /** The request's query (`test_mode`), kept by the language switch. */
  query: Record<string, unknown>;
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

/** The banks' names in Thai, by Bank of Thailand code. */
const THAI_BANK_NAMES: Record<string, string> = {
  '002': 'ธนาคารกรุงเทพ',
  '004': 'ธนาคารกสิกรไทย',
  '006': 'ธนาคารกรุงไทย',
  '011': 'ธนาคารทหารไทยธนชาต',
  '014': 'ธนาคารไทยพาณิชย์',
  '017': 'ธนาคารซิตี้แบงก์',
  '018': 'ธนาคารซูมิโตโม มิตซุย แบงกิ้ง คอร์ปอเรชั่น',
  '020': 'ธนาคารสแตนดาร์ดชาร์เตอร์ด (ไทย)',
  '022': 'ธนาคารซีไอเอ็มบี ไทย',
  '024': 'ธนาคารยูโอบี',
  '025': 'ธนาคารกรุงศรีอยุธยา',
  '026': 'ธนาคารเมกะ สากลพาณิชย์',
  '030': 'ธนาคารออมสิน',
  '031': 'ธนาคารเอชเอสบีซี',
  '033': 'ธนาคารอาคารสงเคราะห์',
  '034': 'ธนาคารเพื่อการเกษตรและสหกรณ์การเกษตร',
  '039': 'ธนาคารมิซูโฮ',
  '066': 'ธนาคารอิสลามแห่งประเทศไทย',
  '067': 'ธนาคารทิสโก้',
  '069': 'ธนาคารเกียรตินาคินภัทร',
  '070': 'ธนาคารไอซีบีซี (ไทย)',
  '071': 'ธนาคารไทยเครดิต',
  '073': 'ธนาคารแลนด์ แอนด์ เฮ้าส์',
};

/** The page's strings; `{payer}` and `{account}` are filled in. */
const TEXT = {
  en: {
    title: 'Add a bank account – {payer}',
    heading: 'Add a bank account',
    headingFor: 'Add a bank account for {account}',
    lead: '{payer} will send payouts to this Thai baht account.',
    bank: 'Bank',
    chooseBank: 'Choose your bank',
    accountNumber: 'Account number',
    accountNumberHint: 'Digits only, as printed in your bank book.',
    holder: 'Account holder name',
    save: 'Save bank account',
  },
  th: {
    title: 'เพิ่มบัญชีธนาคาร – {payer}',
    heading: 'เพิ่มบัญชีธนาคาร',
    headingFor: 'เพิ่มบัญชีธนาคารของ {account}',
    lead: '{payer} จะโอนเงินเข้าบัญชีเงินบาทนี้',
    bank: 'ธนาคาร',
    chooseBank: 'เลือกธนาคารของคุณ',
    accountNumber: 'เลขที่บัญชี',
    accountNumberHint: 'กรอกเฉพาะตัวเลข ตามที่พิมพ์ในสมุดบัญชี',
    holder: 'ชื่อเจ้าของบัญชี',
    save: 'บันทึกบัญชีธนาคาร',
  },
} satisfies Record<HostedLocale, Record<string, string>>;

/** The strings the page's script shows; `{lengths}` is filled in by the script. */
const SCRIPT_TEXT = {
  en: {
    incomplete: 'This link is incomplete: open the full link you were given.',
    chooseBank: 'Choose your bank.',
    lengths: 'The account number must be {lengths} digits for this bank.',
    or: ' or ',
    holder: 'Enter the account holder name.',
    saved: 'Bank account saved.',
    notSaved: 'The bank account could not be saved.',
    offline: 'The bank account could not be saved. Check your connection and try again.',
    E6103: 'Choose your bank from the list.',
    E6104: 'This account number does not match the chosen bank.',
    E1304: 'This account cannot receive payouts until its verification is complete.',
  },
  th: {
    incomplete: 'ลิงก์นี้ไม่ครบถ้วน กรุณาเปิดลิงก์เต็มที่คุณได้รับ',
    chooseBank: 'กรุณาเลือกธนาคาร',
    lengths: 'เลขที่บัญชีของธนาคารนี้ต้องมี {lengths} หลัก',
    or: ' หรือ ',
    holder: 'กรุณากรอกชื่อเจ้าของบัญชี',
    saved: 'บันทึกบัญชีธนาคารแล้ว',
    notSaved: 'ไม่สามารถบันทึกบัญชีธนาคารได้',
    offline: 'ไม่สามารถบันทึกบัญชีธนาคารได้ กรุณาตรวจสอบการเชื่อมต่อแล้วลองอีกครั้ง',
    E6103: 'กรุณาเลือกธนาคารจากรายการ',
    E6104: 'เลขที่บัญชีนี้ไม่ตรงกับธนาคารที่เลือก',
    E1304: 'บัญชีนี้ยังรับเงินโอนไม่ได้จนกว่าการยืนยันตัวตนจะเสร็จสมบูรณ์',
  },
} satisfies Record<HostedLocale, Record<string, string>>;

const STYLE = `
  p.lead { color: #475569; margin: 0 0 1rem; }
  .hint { color: #475569; font-size: .85rem; margin: .3rem 0 0; }
`;

/**
 * The hosted create-bank-account page. Server-rendered; its script reads the one-time session
 * from the URL fragment (never sent to a server), keeps it in sessionStorage for reloads, removes
 * it from the address bar and sends it as X-Session-Token when saving.
 */
export function bankAccountPage(input: BankAccountPageInput): string {
  const strings = TEXT[input.locale];
  const fill = (text: string) => text.replace('{payer}', input.payer).replace('{account}', input.accountName ?? '');
  const t = Object.fromEntries(Object.entries(strings).map(([k, v]) => [k, fill(v)]));
  const config = {
    api: `/api/v1/${encodeURIComponent(input.slug)}/platform/wallet`,
    intent: input.intentId,
    account: input.accountId,
    country: input.country,
    testMode: !input.livemode,
    returnUrl: input.returnUrl,
    refreshUrl: input.refreshUrl,
    t: SCRIPT_TEXT[input.locale],
  };
  const banks = THAI_BANKS.map((bank) => ({
    code: bank.code,
    lengths: bank.lengths.join(','),
    label: `${(input.locale === 'th' && THAI_BANK_NAMES[bank.code]) || bank.name} (${bank.short})`,
  }));
  return renderHostedPage(
    '@bank-account',
    {
      nonce: input.nonce,
      locale: input.locale,
      title: t.title,
      style: STYLE,
      brand: input.payer,
      livemode: input.livemode,
      query: input.query,
      script: pageScript(config),
    },
    { t: { ...t, heading: input.accountName ? t.headingFor : t.heading }, banks },
  );
}

function pageScript(config: { intent: string } & Record<string, unknown>): string {
  return `
(() => {
  const config = ${scriptJson(config)};${sessionFromFragmentScript(`wallet-bank-account-intent:${config.intent}`)}
  const t = config.t;
  const form = document.getElementById('bank-account-form');
  const button = document.getElementById('save');
  if (!token) { show(t.incomplete, 'error'); button.disabled = true; }

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const bank = document.getElementById('bank');
    const number = document.getElementById('account-number').value.replace(/[\\s-]/g, '');
    const name = document.getElementById('account-holder-name').value.trim();
    if (!bank.value) { show(t.chooseBank, 'error'); bank.focus(); return; }
    const lengths = bank.selectedOptions[0].dataset.lengths.split(',').map(Number);
    if (!/^\\d+$/.test(number) || !lengths.includes(number.length)) {
      show(t.lengths.replace('{lengths}', lengths.join(t.or)), 'error');
      document.getElementById('account-number').focus();
      return;
    }
    if (!name) { show(t.holder, 'error'); document.getElementById('account-holder-name').focus(); return; }
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
        show(t.saved, 'done');
        location.assign(config.returnUrl);
        return;
      }
      if (json.code === 'E1212' || json.code === 'E6202') {
        sessionStorage.removeItem(key);
        location.assign(config.refreshUrl);
        return;
      }
      show(t[json.code] || json.message || t.notSaved, 'error');
    } catch {
      show(t.offline, 'error');
    }
    button.disabled = false;
  });
})();
`;
}

const OTHER_TEXT = {
  en: {
    notFound: 'Link not found',
    notFoundMessage: 'This bank account link does not exist. Ask for a new link.',
    expired: 'This link has expired',
    expiredMessage: 'Taking you back to get a new one…',
    continue: 'Continue',
  },
  th: {
    notFound: 'ไม่พบลิงก์',
    notFoundMessage: 'ไม่มีลิงก์บัญชีธนาคารนี้ กรุณาขอลิงก์ใหม่',
    expired: 'ลิงก์นี้หมดอายุแล้ว',
    expiredMessage: 'กำลังพาคุณกลับไปขอลิงก์ใหม่…',
    continue: 'ไปต่อ',
  },
} satisfies Record<HostedLocale, Record<string, string>>;

/** A link that names no intent. */
export function notFoundPage(nonce: string, locale: HostedLocale): string {
  const text = OTHER_TEXT[locale];
  return hostedErrorPage({ nonce, locale, title: text.notFound }, text.notFound, text.notFoundMessage);
}

/**
 * Sends a used or expired link on to `refresh_url`. A script navigation, not an HTTP redirect:
 * browsers carry the fragment (the spent session) across a 3xx to the partner's page.
 */
export function refreshPage(nonce: string, locale: HostedLocale, refreshUrl: string): string {
  const text = OTHER_TEXT[locale];
  return scriptRedirectPage({ nonce, locale, title: text.expired }, refreshUrl, {
    heading: text.expired,
    message: text.expiredMessage,
    link: text.continue,
  });
}
