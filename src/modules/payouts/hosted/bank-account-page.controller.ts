import { Controller, Get, Param, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { RequestContext } from '../../../common/context/request-context.js';
import { Public } from '../../../common/http/decorators.js';
import { HOSTED_PAGE_HEADERS, newNonce, pickLocale } from '../../../common/http/hosted-page.js';
import { ApplicationResolver } from '../../../common/tenancy/application-resolver.js';
import { AccountsService } from '../../accounts/index.js';
import { BankAccountIntentsService } from '../bank-accounts/bank-account-intents.service.js';
import { bankAccountPage, notFoundPage, pagePolicy, refreshPage } from './bank-account-page.js';

/**
 * The hosted create-bank-account page of a bank account intent's `link`. Outside the wallet
 * pipeline (a browser sends no credential or wallet headers, so there is no Principal): the slug
 * and `test_mode` select the application (passed to the lookups) and the mode (bound for ModeDb
 * with runInMode); the page's script authenticates its save with the link's session, whose
 * Principal (`credential.method === 'session'`) POST /bank_accounts receives. A used
 * or expired link goes on to the intent's `refresh_url`, as a partner expects from hosted onboarding.
 */
@ApiExcludeController()
@Controller('connect')
export class BankAccountPageController {
  constructor(
    private readonly applications: ApplicationResolver,
    private readonly intents: BankAccountIntentsService,
    private readonly accounts: AccountsService,
    private readonly context: RequestContext,
  ) {}

  @Get(':slug/bank_account_intents/:id')
  @Public()
  async page(
    @Param('slug') slug: string,
    @Param('id') id: string,
    @Query('test_mode') testMode: string | undefined,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const nonce = newNonce();
    const locale = pickLocale(req);
    res.set({ ...HOSTED_PAGE_HEADERS, 'Content-Security-Policy': pagePolicy(nonce) });
    const application =
      testMode === undefined || testMode === 'true' || testMode === 'false'
        ? await this.applications.bySlug(slug)
        : null;
    if (!application) {
      res.status(404).type('html').send(notFoundPage(nonce, locale));
      return;
    }
    const mode = testMode === 'true' ? 'test' : 'live';
    await this.context.runInMode(mode, async () => {
      const intent = await this.intents.find(application.id, id);
      if (!intent) {
        res.status(404).type('html').send(notFoundPage(nonce, locale));
        return;
      }
      if (this.intents.status(intent) !== 'open') {
        res
          .status(200)
          .type('html')
          .send(refreshPage(nonce, locale, intent.refresh_url));
        return;
      }
      const account = await this.accounts.findById(application.id, intent.account_id);
      res
        .status(200)
        .type('html')
        .send(
          bankAccountPage({
            nonce,
            locale,
            query: req.query,
            payer: application.name,
            accountName: account?.type === 'connected' ? (account.business_name ?? account.name) : null,
            slug: application.slug,
            intentId: intent.id,
            accountId: intent.account_id,
            country: intent.country,
            livemode: mode === 'live',
            returnUrl: intent.return_url,
            refreshUrl: intent.refresh_url,
          }),
        );
    });
  }
}
