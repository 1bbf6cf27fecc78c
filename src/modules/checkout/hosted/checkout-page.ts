import {
  formatMoney,
  intlLocale,
  registerHostedTemplate,
  renderHostedPage,
  type HostedLocale,
} from '../../../common/http/hosted-page.js';
import type { CardEntry } from './card-entry.js';
import { pageScript, SCRIPT_TEXT } from './checkout-page.script.js';
import { statusScript } from './checkout-status.script.js';
import { CHECKOUT_TEMPLATE } from './templates/checkout.template.js';
import { isPaymentMethodType, paymentMethodInfo } from '../../../providers/ports/payment-method-types.js';

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
  /** Mode `setup`: the page saves the card for later payments and charges nothing. */
  setup?: boolean;
  /** The saved card of an off-session payment that needs authentication: offered as one button. */
  savedCard?: { id: string; brand: string; last4: string } | null;
  /** A subscription checkout with allow_promotion_codes and no code yet: the page shows a code field. */
  promotionCode?: boolean;
}

const BRANDS: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  jcb: 'JCB',
  unionpay: 'UnionPay',
  discover: 'Discover',
  diners: 'Diners Club',
};

/** "Visa •••• 3155": the card's brand as its network writes it, and its last four digits. */
export function savedCardName(card: { brand: string; last4: string }): string {
  const brand = BRANDS[card.brand.toLowerCase()] ?? card.brand.charAt(0).toUpperCase() + card.brand.slice(1);
  return `${brand} \u2022\u2022\u2022\u2022 ${card.last4}`;
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
    paySaved: 'Pay with {card}',
    orNewCard: 'Or pay with another card',
    qrLabel: 'PromptPay QR code',
    qrAlt: 'PromptPay QR code to scan with a banking app',
    scan: 'Scan with your banking app. The code is valid until',
    simulate: 'Simulate PromptPay payment (test mode)',
    cancel: 'Cancel and return to {merchant}',
    setupTitle: 'Save a card for {merchant}',
    setupHint: 'Nothing is charged now: {merchant} will charge this card for later payments.',
    save: 'Save card',
    saved: 'This card has been saved. Thank you.',
    promotionCode: 'Promotion code',
    applyCode: 'Apply',
    tabOther: 'Apps & banking',
    groupApps: 'Wallets and apps',
    groupAppsHint:
      'You are taken to the app to approve the payment, then back here. On a phone the app opens by itself.',
    groupOnlineBanking: 'Online banking',
    groupOnlineBankingHint: "You are taken to your bank's site to approve the payment, then back here.",
    groupMobileBanking: 'Mobile banking',
    groupMobileBankingHint:
      "Approve the payment in your bank's app. On a phone the app opens by itself; on a computer, scan its QR code with the app.",
    groupInstallment: 'Card installments',
    groupInstallmentHint:
      'Pay in monthly installments with a credit card of this bank, interest-free. You approve it on the bank’s page.',
    payWith: 'Pay with {name}',
    payInstallments: 'Pay in installments with {name}',
    supports: 'Supported: {apps}',
    term: 'Term with {name}',
    bank: 'Your bank for {name}',
    chooseBank: 'Choose your bank',
    bankMissing: 'Choose your bank to pay with {name}.',
    months: '{months} months × {monthly}',
    qrLabelOther: 'QR code to scan',
    qrAltOther: 'QR code to scan with your app',
    simulateOther: 'Simulate payment (test mode)',
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
    paySaved: 'ชำระด้วย {card}',
    orNewCard: 'หรือชำระด้วยบัตรอื่น',
    qrLabel: 'คิวอาร์โค้ดพร้อมเพย์',
    qrAlt: 'คิวอาร์โค้ดพร้อมเพย์สำหรับสแกนด้วยแอปธนาคาร',
    scan: 'สแกนด้วยแอปธนาคารของคุณ คิวอาร์โค้ดใช้ได้ถึง',
    simulate: 'จำลองการชำระด้วยพร้อมเพย์ (โหมดทดสอบ)',
    cancel: 'ยกเลิกและกลับไปที่ {merchant}',
    setupTitle: 'บันทึกบัตรสำหรับ {merchant}',
    setupHint: 'ยังไม่มีการเรียกเก็บเงินในตอนนี้ {merchant} จะเรียกเก็บเงินจากบัตรนี้สำหรับการชำระเงินครั้งต่อไป',
    save: 'บันทึกบัตร',
    saved: 'บันทึกบัตรนี้เรียบร้อยแล้ว ขอบคุณ',
    promotionCode: 'โค้ดส่วนลด',
    applyCode: 'ใช้โค้ด',
    tabOther: 'แอปและธนาคาร',
    groupApps: 'วอลเล็ทและแอป',
    groupAppsHint: 'ระบบจะพาคุณไปยังแอปเพื่ออนุมัติการชำระเงิน แล้วกลับมาที่หน้านี้ บนโทรศัพท์แอปจะเปิดขึ้นเอง',
    groupOnlineBanking: 'ธนาคารออนไลน์',
    groupOnlineBankingHint: 'ระบบจะพาคุณไปยังเว็บไซต์ธนาคารของคุณเพื่ออนุมัติการชำระเงิน แล้วกลับมาที่หน้านี้',
    groupMobileBanking: 'โมบายแบงก์กิ้ง',
    groupMobileBankingHint: 'อนุมัติการชำระเงินในแอปธนาคารของคุณ บนโทรศัพท์แอปจะเปิดขึ้นเอง บนคอมพิวเตอร์ให้สแกนคิวอาร์โค้ดด้วยแอป',
    groupInstallment: 'ผ่อนชำระผ่านบัตรเครดิต',
    groupInstallmentHint: 'ผ่อนชำระรายเดือนด้วยบัตรเครดิตของธนาคารนี้ ไม่มีดอกเบี้ย อนุมัติในหน้าของธนาคาร',
    payWith: 'ชำระด้วย {name}',
    payInstallments: 'ผ่อนชำระกับ {name}',
    supports: 'รองรับ: {apps}',
    term: 'ระยะเวลาผ่อนกับ {name}',
    bank: 'ธนาคารของคุณสำหรับ {name}',
    chooseBank: 'เลือกธนาคารของคุณ',
    bankMissing: 'เลือกธนาคารของคุณเพื่อชำระด้วย {name}',
    months: '{months} เดือน × {monthly}',
    qrLabelOther: 'คิวอาร์โค้ดสำหรับสแกน',
    qrAltOther: 'คิวอาร์โค้ดสำหรับสแกนด้วยแอปของคุณ',
    simulateOther: 'จำลองการชำระเงิน (โหมดทดสอบ)',
  },
} satisfies Record<HostedLocale, Record<string, string>>;

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
  .method-group h2 { font-size: 1rem; margin: 1.25rem 0 0; }
  .method-group .hint { margin-top: .25rem; }
  .method-row button { margin-top: .6rem; }
  .method-row label { margin-top: .75rem; }
  .apps { color: #475569; font-size: .85rem; margin: .25rem 0 0; }
  .field-error { color: #991b1b; font-size: .9rem; margin: .3rem 0 0; }
  select[aria-invalid=true] { border-color: #991b1b; }
  #other-qr { text-align: center; } #other-qr-image { display: block; margin: 1rem auto .5rem; width: 15rem; height: 15rem; image-rendering: pixelated; }
  #promotion-form { margin: 0 0 1rem; } #promotion-form .apply { flex: 0 0 auto; } #promotion-form .apply button { margin-top: 0; }
  a.cancel { display: block; text-align: center; margin-top: 1.25rem; color: #334155; }
`;

/**
 * The hosted checkout page. Server-rendered; its script reads the one-time session from the URL
 * fragment (never sent to a server), keeps it in sessionStorage for reloads, removes it from the
 * address bar and sends it as X-Session-Token to the session-only endpoints.
 */
export function checkoutPage(input: CheckoutPageInput): string {
  const filled = fill(TEXT[input.locale], input.merchant);
  // A setup checkout saves the card: its own heading, button and "done" line, and no amount.
  const t = input.setup
    ? { ...filled, title: filled.setupTitle, heading: filled.setupTitle, pay: filled.save, paid: filled.saved }
    : filled;
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
    savedCard: input.savedCard?.id ?? null,
    promotionCode: input.promotionCode
      ? `/pay/${encodeURIComponent(input.slug)}/checkouts/${encodeURIComponent(input.checkoutId)}/promotion_code`
      : null,
    t: input.setup
      ? { ...SCRIPT_TEXT[input.locale], received: t.saved, notProcessed: SCRIPT_TEXT[input.locale].notSaved }
      : SCRIPT_TEXT[input.locale],
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
      amount: input.setup ? null : formatMoney(input.amount, input.currency, input.scalingFactor, input.locale),
      description: input.setup ? t.setupHint : input.description,
      status: input.status,
      card: input.paymentMethodTypes.includes('card'),
      // Omise.js tokens carry the cardholder's name (Opn requires it).
      cardName: input.cardEntry.provider === 'opn',
      // Stripe's Payment Element takes the card in its own frame: no card fields of this page.
      cardElement: input.cardEntry.provider === 'stripe',
      promptpay: input.paymentMethodTypes.includes('promptpay'),
      tabs: tabsOf(input, t),
      others: otherMethods(input, t),
      cancelUrl: input.cancelUrl,
      livemode: input.livemode,
      savedCard: input.savedCard ? t.paySaved.replace('{card}', savedCardName(input.savedCard)) : null,
      promotionCode: input.promotionCode === true,
    },
  );
}

type PageText = Record<string, string>;

/** The tabs of the page: card, PromptPay, and the other types the checkout allows, in that order. */
function tabsOf(input: CheckoutPageInput, t: PageText): Array<{ id: string; label: string }> {
  const tabs = [];
  if (input.paymentMethodTypes.includes('card')) tabs.push({ id: 'card', label: t.tabCard });
  if (input.paymentMethodTypes.includes('promptpay')) tabs.push({ id: 'promptpay', label: t.tabPromptpay });
  if (otherTypes(input).length) tabs.push({ id: 'other', label: t.tabOther });
  return tabs;
}

const otherTypes = (input: CheckoutPageInput) =>
  input.paymentMethodTypes.filter((type) => type !== 'card' && type !== 'promptpay' && isPaymentMethodType(type));

/**
 * The registry's other types the checkout allows, grouped as the buyer looks for them: online
 * banking (a bank's site, FPX), wallets and apps, the mobile banking apps, card installments (each
 * issuer with the terms its monthly minimum allows for this amount). Each says which apps or banks
 * it pays with.
 */
function otherMethods(input: CheckoutPageInput, t: PageText) {
  const groups = [
    { id: 'online_banking', title: t.groupOnlineBanking, hint: t.groupOnlineBankingHint, methods: [] as object[] },
    { id: 'apps', title: t.groupApps, hint: t.groupAppsHint, methods: [] as object[] },
    { id: 'mobile_banking', title: t.groupMobileBanking, hint: t.groupMobileBankingHint, methods: [] as object[] },
    { id: 'installment', title: t.groupInstallment, hint: t.groupInstallmentHint, methods: [] as object[] },
  ];
  for (const type of otherTypes(input)) {
    if (!isPaymentMethodType(type)) continue;
    const info = paymentMethodInfo(type);
    const name = info.name[input.locale];
    const group = groups.find((g) => g.id === (info.group ?? 'apps'))!;
    const plan = info.installment;
    const minimum = plan?.minMonthly[input.currency] ?? 0;
    const terms = plan?.terms
      .filter((months) => Math.floor(input.amount / months) >= minimum)
      .map((months) => ({
        months,
        label: t.months
          .replace('{months}', String(months))
          .replace(
            '{monthly}',
            formatMoney(Math.floor(input.amount / months), input.currency, input.scalingFactor, input.locale),
          ),
      }));
    if (plan && !terms?.length) continue;
    // A type with several banks (FPX) asks the payer to pick one: the select lists them (payer-bank.ts)
    // after a "Choose your bank" placeholder, so no bank is chosen for the payer.
    const banks = !plan && info.apps.length > 1 ? info.apps : null;
    group.methods.push({
      type,
      flow: info.flow,
      label: (plan ? t.payInstallments : t.payWith).replace('{name}', name),
      apps:
        info.apps.length && !plan && !banks
          ? t.supports.replace('{apps}', info.apps.map((a) => a.name).join(', '))
          : null,
      banks,
      bankLabel: banks ? t.bank.replace('{name}', name) : null,
      bankMissing: banks ? t.bankMissing.replace('{name}', name) : null,
      terms: plan ? terms : null,
      termLabel: plan ? t.term.replace('{name}', name) : null,
    });
  }
  return groups.filter((g) => g.methods.length > 0);
}
