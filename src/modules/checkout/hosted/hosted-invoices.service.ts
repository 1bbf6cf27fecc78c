import { Injectable } from '@nestjs/common';
import { scopeOf, type Mode } from '../../../common/context/principal.js';
import { RequestContext } from '../../../common/context/request-context.js';
import { newNonce, renderHostedPage } from '../../../common/http/hosted-page.js';
import { ApplicationResolver } from '../../../common/tenancy/application-resolver.js';
import { findInEitherMode } from '../../../common/tenancy/find-in-either-mode.js';
import { CheckoutsService } from '../checkouts/checkouts.service.js';
import { TargetsService } from '../targets/targets.service.js';
import { checkoutErrorPage } from './checkout-messages.js';
import { redirectToNewCheckout, type HostedAnswer, type HostedVisit } from './hosted-answer.js';
import { INVOICE_STYLE, INVOICE_TEXT, invoicePageData } from './invoice-page.js';

const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The hosted invoice page (docs/BILLING.md, "Collection and retries"): a send_invoice invoice shown
 * with its lines and tax, and paid through the existing checkout machinery: "Pay" opens a fresh
 * checkout on the invoice target (as a payment link does) and sends the browser to its page, where
 * the customer pays with one of the invoice's types that can collect its amount due. Like every hosted route it carries no credential: the
 * invoice is looked up by id in both modes, and only invoices that have a hosted page are shown.
 */
@Injectable()
export class HostedInvoicesService {
  constructor(
    private readonly resolver: ApplicationResolver,
    private readonly context: RequestContext,
    private readonly targets: TargetsService,
    private readonly checkouts: CheckoutsService,
  ) {}

  async invoicePage(slug: string, id: string, visit: HostedVisit): Promise<HostedAnswer> {
    const nonce = newNonce();
    const found = await this.find(slug, id);
    if (!found)
      return { kind: 'page', status: 404, nonce, html: checkoutErrorPage(nonce, visit.locale, 'linkNotFound') };
    const { application, invoice } = found;
    const query = visit.query.locale === visit.locale ? `?locale=${visit.locale}` : '';
    const html = renderHostedPage(
      '@invoice',
      {
        nonce,
        locale: visit.locale,
        title: `${INVOICE_TEXT[visit.locale].heading} ${invoice.number}`,
        style: INVOICE_STYLE,
        brand: application.name,
        livemode: invoice.livemode,
        query: visit.query as Record<string, unknown>,
      },
      invoicePageData(invoice, visit.locale, `${id}/pay${query}`),
    );
    return { kind: 'page', status: 200, nonce, html };
  }

  /** "Pay": a fresh checkout on the invoice, and the browser sent on to its page (the session in the fragment). */
  async payInvoice(slug: string, id: string, visit: HostedVisit): Promise<HostedAnswer> {
    const nonce = newNonce();
    const locale = visit.locale;
    const found = await this.find(slug, id);
    if (!found) return { kind: 'page', status: 404, nonce, html: checkoutErrorPage(nonce, locale, 'linkNotFound') };
    const { application, invoice, mode } = found;
    return redirectToNewCheckout(nonce, visit, () =>
      this.context.runInMode(
        mode,
        // Paid, the customer comes back to the invoice page, which then says so.
        () =>
          this.checkouts.create(scopeOf(application, mode, invoice.country), {
            target_type: 'invoice',
            target_id: invoice.id,
            success_url: invoice.hosted_invoice_url ?? undefined,
            cancel_url: invoice.hosted_invoice_url ?? undefined,
          }),
        { application, country: invoice.country },
      ),
    );
  }

  private async find(slug: string, id: string) {
    const application = ID.test(id) ? await this.resolver.bySlug(slug) : null;
    if (!application) return null;
    const found = await findInEitherMode((mode: Mode) =>
      this.context.runInMode(
        mode,
        async () => {
          const invoice = await this.targets.findInvoice(application.id, id);
          return invoice?.hosted_invoice_url ? { invoice, mode } : null;
        },
        { application },
      ),
    );
    return found ? { application, ...found } : null;
  }
}
