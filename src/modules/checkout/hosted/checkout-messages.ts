import { hostedErrorPage, scriptRedirectPage, type HostedLocale } from '../../../common/http/hosted-page.js';

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

/** What the checkout page says when the payer comes back from a 3-D Secure that did not pay. */
export const RETURN_TEXT = {
  en: {
    declined: 'Your card was declined. Try another card or payment method.',
    failed: 'The card payment was not completed.',
    pending: 'Your bank is still confirming the payment. This page moves on by itself once it is done.',
  },
  th: {
    declined: 'บัตรของคุณถูกปฏิเสธ กรุณาใช้บัตรหรือวิธีชำระเงินอื่น',
    failed: 'การชำระเงินด้วยบัตรไม่สำเร็จ',
    pending: 'ธนาคารของคุณกำลังยืนยันการชำระเงิน หน้านี้จะไปต่อเองเมื่อเสร็จสิ้น',
  },
} satisfies Record<HostedLocale, Record<string, string>>;
