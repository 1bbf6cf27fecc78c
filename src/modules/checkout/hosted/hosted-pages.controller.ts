import { Body, Controller, Get, Header, Param, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../../../common/http/decorators.js';
import { sendHosted, visitOf } from './hosted-answer.js';
import { HostedCheckoutsService } from './hosted-checkouts.service.js';
import { PromotionCodeEntryService } from './promotion-code-entry.service.js';
import { HostedInvoicesService } from './hosted-invoices.service.js';

/**
 * The hosted pages, served at PUBLIC_URL/pay/...: the checkout page, its status poll and card
 * intent and promotion code field, the payment link page (HostedCheckoutsService), and the hosted invoice page
 * (HostedInvoicesService).
 */
@ApiExcludeController()
@Controller('pay')
@Public()
export class HostedPagesController {
  constructor(
    private readonly hosted: HostedCheckoutsService,
    private readonly promotionCodes: PromotionCodeEntryService,
    private readonly invoices: HostedInvoicesService,
  ) {}

  @Post(':slug/checkouts/:id/card_intent')
  @Header('Cache-Control', 'no-store')
  @Header('X-Content-Type-Options', 'nosniff')
  async cardIntent(@Param('slug') slug: string, @Param('id') id: string, @Req() req: Request, @Res() res: Response) {
    sendHosted(res, await this.hosted.cardIntent(slug, id, visitOf(req)));
  }

  @Post(':slug/checkouts/:id/promotion_code')
  @Header('Cache-Control', 'no-store')
  @Header('X-Content-Type-Options', 'nosniff')
  async promotionCode(
    @Param('slug') slug: string,
    @Param('id') id: string,
    @Body() body: unknown,
    @Req() req: Request,
    @Res() res: Response,
  ) {
    sendHosted(res, await this.promotionCodes.apply(slug, id, visitOf(req), body));
  }

  @Get(':slug/checkouts/:id/status')
  @Header('Cache-Control', 'no-store')
  @Header('X-Content-Type-Options', 'nosniff')
  async checkoutStatus(
    @Param('slug') slug: string,
    @Param('id') id: string,
    @Req() req: Request,
    @Res() res: Response,
  ) {
    sendHosted(res, await this.hosted.checkoutStatus(slug, id, visitOf(req)));
  }

  @Get(':slug/checkouts/:id')
  async checkout(@Param('slug') slug: string, @Param('id') id: string, @Req() req: Request, @Res() res: Response) {
    sendHosted(res, await this.hosted.checkoutPage(slug, id, visitOf(req)));
  }

  @Get(':slug/invoices/:id')
  async invoice(@Param('slug') slug: string, @Param('id') id: string, @Req() req: Request, @Res() res: Response) {
    sendHosted(res, await this.invoices.invoicePage(slug, id, visitOf(req)));
  }

  @Get(':slug/invoices/:id/pay')
  async payInvoice(@Param('slug') slug: string, @Param('id') id: string, @Req() req: Request, @Res() res: Response) {
    sendHosted(res, await this.invoices.payInvoice(slug, id, visitOf(req)));
  }

  @Get(':slug/links/:id')
  async paymentLink(@Param('slug') slug: string, @Param('id') id: string, @Req() req: Request, @Res() res: Response) {
    sendHosted(res, await this.hosted.paymentLinkPage(slug, id, visitOf(req)));
  }
}
