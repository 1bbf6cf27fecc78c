import { Injectable } from '@nestjs/common';
import {
  formatMoney,
  newNonce,
  registerHostedTemplate,
  renderHostedPage,
  scriptJson,
} from '../../../common/http/hosted-page.js';
import { RequestContext } from '../../../common/context/request-context.js';
import { ApplicationsService } from '../../applications/index.js';
import type { Charge } from '../entities/charge.entity.js';
import { ChargesService } from '../payments/charges.service.js';
import { SandboxCollectionProvider } from '../payments/providers/sandbox-collection.provider.js';
import { chargeMethodType, paymentMethodInfo } from '../../../providers/ports/payment-method-types.js';
import type { HostedAnswer, HostedVisit } from './hosted-answer.js';
import { AppError } from '../../../common/errors/app-error.js';
import { Errors } from '../../../common/errors/error-catalog.js';
import { CheckoutErrors } from '../checkout.errors.js';
import { CheckoutPageRenderer } from './checkout-page.renderer.js';

const TEXT = {
  en: {
    title: 'Sandbox payment page',
    heading: 'Pay with',
    note: 'Test mode: this page stands in for the app or bank page the provider would open. No real money moves.',
    apps: 'Pays with',
    authorize: 'Authorize payment',
    decline: 'Decline payment',
    failed: 'Could not reach the sandbox. Try again.',
  },
  th: {
    title: 'หน้าชำระเงินจำลอง',
    heading: 'ชำระเงินด้วย',
    note: 'โหมดทดสอบ: หน้านี้จำลองแอปหรือหน้าธนาคารที่ผู้ให้บริการจะเปิด ไม่มีการเคลื่อนไหวของเงินจริง',
    apps: 'ชำระผ่าน',
    authorize: 'อนุมัติการชำระเงิน',
    decline: 'ปฏิเสธการชำระเงิน',
    failed: 'ติดต่อระบบจำลองไม่ได้ กรุณาลองอีกครั้ง',
  },
};

registerHostedTemplate(
  '@sandbox-payment',
  `<% layout('@layout') %>
    <h1><%= it.t.heading %> <%= it.method %></h1>
    <p class="amount" id="amount"><%= it.amount %></p>
    <p class="test"><%= it.t.note %></p>
<% if (it.apps.length) { %>
    <p><%= it.t.apps %>: <%= it.apps.join(', ') %></p>
<% } %>
    <p id="message" class="error" role="alert" hidden></p>
    <button type="button" id="authorize"><%= it.t.authorize %></button>
    <button type="button" id="decline" class="secondary"><%= it.t.decline %></button>
`,
);

/**
 * The sandbox's stand-in for a provider's payment page (a redirect flow in test mode: TrueMoney's
 * app, a bank's app, an installment issuer's page), served at the sandbox's `redirectUrl`,
 * `/provider_returns/sandbox/{charge id}/authorize`. The buyer authorizes or declines; the sandbox
 * records it and the browser goes to the return route, which reads the charge back and applies it
 * as for a real provider. Test mode only: the sandbox serves no live charge, so a live charge id
 * (or any charge the sandbox did not make) is not found.
 */
@Injectable()
export class SandboxPaymentPage {
  constructor(
    private readonly charges: ChargesService,
    private readonly sandbox: SandboxCollectionProvider,
    private readonly applications: ApplicationsService,
    private readonly context: RequestContext,
    private readonly pages: CheckoutPageRenderer,
  ) {}

  async page(chargeId: string, visit: HostedVisit): Promise<HostedAnswer> {
    const found = await this.pendingSandboxCharge(chargeId);
    if (!found) {
      if (visit.browser) return this.pages.notFound(visit);
      throw new AppError(CheckoutErrors.E7022, `The sandbox has no pending payment for charge "${chargeId}".`);
    }
    const { charge, reference, merchant } = found;
    const info = paymentMethodInfo(chargeMethodType(charge));
    // A type whose payer picked a bank (FPX) stands in for that bank's page: it names only that bank.
    const bank = this.sandbox.bankOf(reference);
    const nonce = newNonce();
    const t = TEXT[visit.locale];
    const actionUrl = `/provider_returns/sandbox/${encodeURIComponent(charge.id)}/authorize`;
    const script = `
  const failed = ${scriptJson(t.failed)};
  const act = async (outcome) => {
    for (const b of document.querySelectorAll('button')) b.disabled = true;
    try {
      const res = await fetch(${scriptJson(actionUrl)}, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ outcome }),
      });
      const body = await res.json();
      if (!res.ok) throw new Error(body.message);
      location.assign(body.return_url);
    } catch {
      const message = document.getElementById('message');
      message.textContent = failed;
      message.hidden = false;
      for (const b of document.querySelectorAll('button')) b.disabled = false;
    }
  };
  document.getElementById('authorize').addEventListener('click', () => act('succeeded'));
  document.getElementById('decline').addEventListener('click', () => act('failed'));`;
    const html = renderHostedPage(
      '@sandbox-payment',
      {
        nonce,
        locale: visit.locale,
        title: t.title,
        brand: merchant,
        livemode: false,
        query: visit.query,
        script,
        style: `.amount { font-size: 1.5rem; font-weight: 700; margin: .25rem 0 1rem; }
  button.secondary { background: #fff; color: #991b1b; border: 1px solid #991b1b; }
  button.secondary:hover { background: #fef2f2; }`,
      },
      {
        t,
        method: info.name[visit.locale],
        amount: formatMoney(Number(charge.amount), charge.currency, charge.scaling_factor, visit.locale),
        apps: info.apps.filter((a) => !bank || a.id === bank).map((a) => a.name),
      },
    );
    return { kind: 'page', status: 200, nonce, html };
  }

  /** The buyer's choice on the page: the sandbox records it once; the browser goes to the return route. */
  async act(chargeId: string, outcome: unknown): Promise<HostedAnswer> {
    const found = await this.pendingSandboxCharge(chargeId);
    if (!found)
      throw new AppError(CheckoutErrors.E7022, `The sandbox has no pending payment for charge "${chargeId}".`);
    if (outcome !== 'succeeded' && outcome !== 'failed') {
      throw new AppError(Errors.E2000, 'Invalid parameter "outcome": it must be "succeeded" or "failed".');
    }
    await this.sandbox.simulate(found.reference, outcome);
    return {
      kind: 'json',
      status: 200,
      body: { return_url: `/provider_returns/sandbox/${encodeURIComponent(found.charge.id)}` },
    };
  }

  /** A test-mode charge the sandbox made as a QR or redirect payment, still pending, with its merchant's name. */
  private async pendingSandboxCharge(
    chargeId: string,
  ): Promise<{ charge: Charge; reference: string; merchant: string } | null> {
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(chargeId)) return null;
    const charge = await this.context.runInMode('test', () => this.charges.findInMode(chargeId));
    const reference = this.sandbox.sourceOf(chargeId);
    if (
      !charge ||
      !reference ||
      charge.provider !== 'sandbox' ||
      charge.status !== 'pending' ||
      reference !== charge.reference_id
    ) {
      return null;
    }
    const application = (await this.applications.byIds([charge.application_id])).get(charge.application_id);
    return application ? { charge, reference, merchant: application.name } : null;
  }
}
