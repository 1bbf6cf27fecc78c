import { Injectable } from '@nestjs/common';
import { scopeOf, type ApplicationRef, type Mode } from '../../../common/context/principal.js';
import { RequestContext } from '../../../common/context/request-context.js';
import { AppError } from '../../../common/errors/app-error.js';
import { Errors } from '../../../common/errors/error-catalog.js';
import { formatMoney } from '../../../common/http/hosted-page.js';
import { ApplicationResolver } from '../../../common/tenancy/application-resolver.js';
import { SessionsService } from '../../auth/index.js';
import { SubscriptionCheckoutsService } from '../../billing/index.js';
import { CheckoutErrors } from '../checkout.errors.js';
import { CheckoutsService, effectiveStatus } from '../checkouts/checkouts.service.js';
import { ChargesService } from '../payments/charges.service.js';
import { InvoicesService } from '../targets/invoices.service.js';
import type { HostedAnswer, HostedVisit } from './hosted-answer.js';
import { Clock } from '../../../common/clock.js';

/** What a buyer may type: the catalog's code alphabet, at most this long. */
const CODE = /^[A-Za-z0-9_-]{1,100}$/;

/**
 * The promotion code field of a subscription checkout's hosted page (allow_promotion_codes;
 * docs/BILLING.md, "Subscription checkout"): POST /pay/{slug}/checkouts/{id}/promotion_code
 * `{code}` with the page's session. In ONE transaction, the checkout locked: the code is redeemed
 * through the catalog as a `promotion_code` given at creation is (its refusals, max_redemptions
 * counted), becomes the subscription's discount, the first invoice is priced again (discount, then
 * tax per line half-up: `invoice.updated`) and the checkout's amount follows it. An expiry gives the
 * redemption back as for a code given at creation.
 */
@Injectable()
export class PromotionCodeEntryService {
  constructor(
    private readonly resolver: ApplicationResolver,
    private readonly sessions: SessionsService,
    private readonly context: RequestContext,
    private readonly checkouts: CheckoutsService,
    private readonly subscriptions: SubscriptionCheckoutsService,
    private readonly invoices: InvoicesService,
    private readonly charges: ChargesService,
    private readonly clock: Clock,
  ) {}

  async apply(slug: string, id: string, visit: HostedVisit, body: unknown): Promise<HostedAnswer> {
    const application = await this.resolver.bySlug(slug);
    const session = application && visit.sessionToken ? await this.sessions.verify(visit.sessionToken) : null;
    if (
      !application ||
      !session ||
      session.purpose !== 'checkout' ||
      session.targetId !== id ||
      session.applicationId !== application.id
    ) {
      throw new AppError(Errors.E1212, 'This payment session is not valid for this checkout.');
    }
    const code = (body as { code?: unknown } | null)?.code;
    if (typeof code !== 'string' || !CODE.test(code.trim())) {
      throw new AppError(Errors.E2000, 'code: the promotion code as the buyer typed it (letters, digits, _ and -).');
    }
    const answer = await this.context.runInMode(
      session.mode,
      () => this.applyIn(application, session.mode, id, code.trim(), visit),
      { application },
    );
    return { kind: 'json', status: 200, body: answer };
  }

  private async applyIn(application: ApplicationRef, mode: Mode, id: string, code: string, visit: HostedVisit) {
    const applicationId = application.id;
    const unlocked = await this.checkouts.find(applicationId, id);
    if (!unlocked) throw new AppError(Errors.E4004, `No checkout with id "${id}".`);
    const scope = scopeOf(application, mode, unlocked.country);
    // Read before the transaction opens (the embedded database serves one connection at a time).
    const firstTime = unlocked.customer_id
      ? !(await this.charges.customerHasPaid(applicationId, unlocked.customer_id))
      : false;
    return this.checkouts.transaction(async (manager) => {
      const checkout = (await this.checkouts.find(applicationId, id, manager, true))!;
      const status = effectiveStatus(checkout, this.clock.now());
      if (status === 'expired') throw new AppError(CheckoutErrors.E7005, `Checkout "${id}" has expired.`);
      if (status === 'complete') throw new AppError(CheckoutErrors.E7006, `Checkout "${id}" is complete.`);
      if (checkout.mode !== 'subscription' || !checkout.allow_promotion_codes) {
        throw new AppError(
          CheckoutErrors.E7076,
          `Checkout "${id}" takes no promotion code on its page (mode "subscription" with allow_promotion_codes: true).`,
        );
      }
      if (checkout.pending_charge_id) {
        throw new AppError(
          CheckoutErrors.E7076,
          `Checkout "${id}" has a payment in progress; its amount cannot change.`,
        );
      }
      const priced = await this.subscriptions.applyPromotionCode(
        scope,
        checkout.subscription_id!,
        code,
        firstTime,
        manager,
      );
      if (priced === 'discounted') {
        throw new AppError(CheckoutErrors.E7076, `Checkout "${id}" already has a promotion code.`);
      }
      if (checkout.invoice_id) {
        const invoice = await this.invoices.reprice(
          applicationId,
          checkout.invoice_id,
          { lines: priced.lines, subtotal: priced.totals.subtotal, total: priced.totals.total },
          manager,
        );
        await this.checkouts.reprice(checkout, Number(invoice.total), manager);
      }
      const amount = Number(checkout.amount);
      return {
        object: 'checkout_promotion_code',
        checkout: checkout.id,
        promotion_code: priced.subscription.discount?.promotion_code ?? null,
        code,
        amount,
        amount_discount: priced.totals.total_discount,
        currency: checkout.currency,
        scaling_factor: checkout.scaling_factor,
        amount_text: formatMoney(amount, checkout.currency, checkout.scaling_factor, visit.locale),
        discount_text: formatMoney(
          priced.totals.total_discount,
          checkout.currency,
          checkout.scaling_factor,
          visit.locale,
        ),
      };
    });
  }
}
