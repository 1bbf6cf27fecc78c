import { formatMoney, registerHostedTemplate, type HostedLocale } from '../../../common/http/hosted-page.js';
import { invoiceAmountDue, type Invoice } from '../entities/invoice.entity.js';

/**
 * The hosted invoice page (a send_invoice invoice's `hosted_invoice_url`): who bills, the lines with
 * their tax and discount lines, the total, the prepaid credit it drew and the amount due, the due date and a "Pay" link that opens a checkout on
 * the invoice. Plain HTML, no script: paying happens on the checkout page.
 */
const INVOICE_TEMPLATE = `<% layout('@layout') %>
    <h1><%= it.t.heading %> <%= it.number %></h1>
    <p class="amount" id="amount"><%= it.amountDue %></p>
<% if (it.description) { %>
    <p class="description"><%= it.description %></p>
<% } %>
    <table aria-label="<%= it.t.lines %>">
      <thead><tr><th scope="col"><%= it.t.item %></th><th scope="col"><%= it.t.quantity %></th><th scope="col"><%= it.t.amount %></th></tr></thead>
      <tbody>
<% it.lines.forEach(function (line) { %>
        <tr><td><%= line.description %></td><td><%= line.quantity %></td><td><%= line.total %></td></tr>
<% }) %>
      </tbody>
      <tfoot>
        <tr><th scope="row" colspan="2"><%= it.t.total %></th><td><%= it.total %></td></tr>
<% if (it.credit) { %>
        <tr><th scope="row" colspan="2"><%= it.t.credit %></th><td>-<%= it.credit %></td></tr>
        <tr><th scope="row" colspan="2"><%= it.t.amountDue %></th><td><%= it.amountDue %></td></tr>
<% } %>
      </tfoot>
    </table>
<% if (it.dueDate) { %>
    <p><%= it.t.due %> <time datetime="<%= it.dueIso %>"><%= it.dueDate %></time></p>
<% } %>
<% if (it.status === 'paid') { %>
    <p class="done" role="status"><%= it.t.paid %></p>
<% } else if (it.status === 'void') { %>
    <p class="error" role="alert"><%= it.t.void %></p>
<% } else { %>
    <p><a class="pay" id="pay" href="<%= it.payHref %>"><%= it.t.pay %></a></p>
<% } %>
`;
registerHostedTemplate('@invoice', INVOICE_TEMPLATE);

export const INVOICE_STYLE = `
  table { width: 100%; border-collapse: collapse; margin: 1rem 0; font-size: .9rem; }
  th, td { text-align: left; padding: .35rem .25rem; border-bottom: 1px solid #e2e8f0; }
  td:last-child, th:last-child { text-align: right; }
  .amount { font-size: 1.5rem; font-weight: 700; margin: .25rem 0; }
  a.pay { display: block; text-align: center; margin-top: 1.25rem; padding: .7rem 1rem; background: #1d4ed8; color: #fff;
    border-radius: 8px; font-weight: 600; text-decoration: none; }
`;

export const INVOICE_TEXT = {
  en: {
    heading: 'Invoice',
    lines: 'Invoice lines',
    item: 'Item',
    quantity: 'Qty',
    amount: 'Amount',
    total: 'Total',
    credit: 'Prepaid credit applied',
    amountDue: 'Amount due',
    due: 'Due',
    pay: 'Pay this invoice',
    paid: 'This invoice is paid. Thank you.',
    void: 'This invoice was voided and cannot be paid.',
  },
  th: {
    heading: 'ใบแจ้งหนี้',
    lines: 'รายการในใบแจ้งหนี้',
    item: 'รายการ',
    quantity: 'จำนวน',
    amount: 'จำนวนเงิน',
    total: 'ยอดรวม',
    credit: 'เครดิตล่วงหน้าที่ใช้',
    amountDue: 'ยอดที่ต้องชำระ',
    due: 'ครบกำหนดชำระ',
    pay: 'ชำระใบแจ้งหนี้นี้',
    paid: 'ใบแจ้งหนี้นี้ชำระแล้ว ขอบคุณค่ะ',
    void: 'ใบแจ้งหนี้นี้ถูกยกเลิกและไม่สามารถชำระได้',
  },
} satisfies Record<HostedLocale, Record<string, string>>;

/** The page's data: every amount formatted in the visitor's locale. */
export function invoicePageData(invoice: Invoice, locale: HostedLocale, payHref: string) {
  const money = (amount: number) => formatMoney(amount, invoice.currency, invoice.scaling_factor, locale);
  return {
    t: INVOICE_TEXT[locale],
    number: invoice.number,
    description: invoice.description,
    status: invoice.status,
    total: money(Number(invoice.total)),
    credit: Number(invoice.credit_applied ?? 0) > 0 ? money(Number(invoice.credit_applied)) : null,
    amountDue: money(invoiceAmountDue(invoice)),
    lines: invoice.line_items.map((l) => ({
      description: l.description,
      quantity: l.quantity,
      total: money(l.amount * l.quantity),
    })),
    dueIso: invoice.due_date?.toISOString() ?? null,
    dueDate: invoice.due_date
      ? new Intl.DateTimeFormat(locale === 'th' ? 'th-TH' : 'en-GB', { dateStyle: 'long', timeZone: 'UTC' }).format(
          invoice.due_date,
        )
      : null,
    payHref,
  };
}
