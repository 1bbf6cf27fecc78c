import { Controller, Get, Param, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Clock } from '../../../../common/clock.js';
import { scopeOf, type ApplicationRef, type Mode } from '../../../../common/context/principal.js';
import { RequestContext } from '../../../../common/context/request-context.js';
import { AppError } from '../../../../common/errors/app-error.js';
import { Errors } from '../../../../common/errors/error-catalog.js';
import { Public } from '../../../../common/http/decorators.js';
import { newNonce, pickLocale } from '../../../../common/http/hosted-page.js';
import { ApplicationResolver } from '../../../../common/tenancy/application-resolver.js';
import { effectiveStatus } from '../checkouts.service.js';
import { CollectionRepository } from '../../checkout.repository.js';
import { Checkout } from '../../entities/checkout.entity.js';
import { Charge } from '../../entities/charge.entity.js';
import { SessionsService } from '../../../auth/index.js';
import { PaymentLinksService } from '../payment-links.service.js';
import { PaymentsService } from '../../payments/payments.service.js';
import { checkoutErrorPage, redirectPage } from './checkout-page.js';
import { CheckoutPageRenderer, sendHostedPage as send } from './checkout-page.renderer.js';

const MODES: Mode[] = ['test', 'live'];

/**
 * The hosted pages, served at PUBLIC_URL/pay/...: the checkout page and the payment link page.
 * They carry no credential (the session is in the fragment), so they look the record up by id in
 * both modes; ids are UUIDv7, unique across both schemas.
 */
@ApiExcludeController()
@Controller('pay')
export class HostedPagesController {
  constructor(
    private readonly applications: ApplicationResolver,
    private readonly repository: CollectionRepository,
    private readonly links: PaymentLinksService,
    private readonly context: RequestContext,
    private readonly clock: Clock,
    private readonly sessions: SessionsService,
    private readonly pages: CheckoutPageRenderer,
    private readonly payments: PaymentsService,
  ) {}

  /**
   * The PaymentIntent of Stripe's Payment Element for the open checkout page (live card entry,
   * docs/PROVIDERS.md): the page's session (X-Session-Token, still valid: this records an attempt)
   * gets `{client_secret, return_url}`; Stripe.js confirms the payment with the card it takes, and
   * the payer comes back to the return route. Asked again (a reload), the same intent. Another
   * session, or a used or expired one: E1212; a checkout its country's provider serves by token: E7008.
   */
  @Post(':slug/checkouts/:id/card_intent')
  @Public()
  async cardIntent(
    @Param('slug') slug: string,
    @Param('id') id: string,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    res.set({ 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' });
    const token = req.headers['x-session-token'];
    const application = await this.applications.bySlug(slug);
    const session = application && typeof token === 'string' ? await this.sessions.verify(token) : null;
    if (
      !application ||
      !session ||
      session.purpose !== 'checkout' ||
      session.targetId !== id ||
      session.applicationId !== application.id
    ) {
      throw new AppError(Errors.E1212, 'This payment session is not valid for this checkout.');
    }
    const answer = await this.context.runInMode(
      session.mode,
      () => this.payments.prepareCardIntent(application, session.mode === 'live', id),
      { application },
    );
    res.status(200).json({ object: 'card_intent', ...answer });
  }

  /**
   * The hosted page's own status poll: what a reload of the page would show, as JSON, for the
   * page's session only (X-Session-Token, the one the page was opened with, still accepted after
   * the session completed or expired, because it authorizes nothing here). `status` is the
   * checkout's (`open`, `complete`, `expired`, by the service clock); `redirect_url` the
   * success_url once complete; `promptpay` the state of the pending QR code (`pending`, `expired`)
   * or null (none pending: never asked for, or already failed by the expiry sweep). Unknown checkout or another session: 404 with no body worth reading.
   */
  @Get(':slug/checkouts/:id/status')
  @Public()
  async checkoutStatus(
    @Param('slug') slug: string,
    @Param('id') id: string,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    res.set({ 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' });
    const token = req.headers['x-session-token'];
    const application = await this.applications.bySlug(slug);
    const found =
      application && typeof token === 'string' && /^[0-9a-f-]{36}$/.test(id)
        ? await this.inEitherMode(application, (mode) =>
            this.context.runInMode(
              mode,
              async () => {
                const checkout = await this.repository.find(Checkout, application.id, id);
                if (!checkout || !(await this.sessions.identifies(token, 'checkout', checkout.id))) return null;
                const charge = checkout.pending_charge_id
                  ? await this.repository.find(Charge, application.id, checkout.pending_charge_id)
                  : null;
                return { checkout, charge };
              },
              { application },
            ),
          )
        : null;
    if (!found) {
      res.status(404).json({ object: 'checkout_status', status: null });
      return;
    }
    const { checkout, charge } = found;
    const now = this.clock.now();
    const status = effectiveStatus(checkout, now);
    // A checkout's pending PromptPay charge is its QR code (a pending card charge waits for 3-D
    // Secure); the sweep fails it and clears it once expired, before that its expires_at says so.
    const promptpay =
      charge === null || charge.status !== 'pending' || !charge.promptpay
        ? null
        : charge.expires_at !== null && charge.expires_at <= now
          ? 'expired'
          : 'pending';
    res.status(200).json({
      object: 'checkout_status',
      status,
      redirect_url:
        status === 'complete' && checkout.success_url
          ? checkout.success_url.replaceAll('{CHECKOUT_ID}', checkout.id)
          : null,
      promptpay,
    });
  }

  @Get(':slug/checkouts/:id')
  @Public()
  async checkout(
    @Param('slug') slug: string,
    @Param('id') id: string,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const application = await this.applications.bySlug(slug);
    const found = application
      ? await this.inEitherMode(application, (m) => this.loadCheckout(application, id, m))
      : null;
    if (!application || !found) return this.pages.notFound(req, res);
    this.pages.render(req, res, application, found.checkout, found.description);
  }

  @Get(':slug/links/:id')
  @Public()
  async paymentLink(
    @Param('slug') slug: string,
    @Param('id') id: string,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const nonce = newNonce();
    const locale = pickLocale(req);
    const application = await this.applications.bySlug(slug);
    const link = application
      ? await this.inEitherMode(application, async (mode) => {
          const found = await this.context.runInMode(mode, () => this.links.find(scopeOf(application, mode), id), {
            application,
          });
          return found ? { mode, country: found.country } : null;
        })
      : null;
    if (!application || !link) {
      return send(res, 404, nonce, checkoutErrorPage(nonce, locale, 'linkNotFound'));
    }
    try {
      const scope = scopeOf(application, link.mode, link.country);
      const checkout = await this.context.runInMode(link.mode, () => this.links.openCheckout(scope, id), {
        application,
        country: link.country,
      });
      const url = new URL(checkout.url);
      // The checkout opens in the language the link was opened in.
      const query = req.query.locale === locale ? `?locale=${locale}` : '';
      send(res, 200, nonce, redirectPage(nonce, locale, `${url.pathname}${query}${url.hash}`));
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      send(res, err.status, nonce, checkoutErrorPage(nonce, locale, 'linkUnpayable', err.message));
    }
  }

  private async inEitherMode<T>(application: ApplicationRef, find: (mode: Mode) => Promise<T | null>) {
    for (const mode of MODES) {
      const found = await find(mode);
      if (found) return found;
    }
    return null;
  }

  private loadCheckout(application: ApplicationRef, id: string, mode: Mode) {
    return this.context.runInMode(
      mode,
      async () => {
        const checkout = await this.repository.find(Checkout, application.id, id);
        if (!checkout) return null;
        const description = await this.pages.description(application.id, checkout);
        return { checkout, description };
      },
      { application },
    );
  }
}
