import { Body, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Principal } from '../../../common/context/principal.js';
import { Errors } from '../../../common/errors/error-catalog.js';
import { ApiErrors, Auth, CurrentPrincipal, WalletController } from '../../../common/http/decorators.js';
import { IdOf } from '../../../common/http/id-param.pipe.js';
import { ApiListQuery, ApiListResponse, ListQueryParams, type ListQuery } from '../../../common/list/index.js';
import { CheckoutErrors as E } from '../checkout.errors.js';
import { CreatePaymentLinkDto } from '../dto/checkout.dto.js';
import { PaymentLinkDto } from '../dto/responses.dto.js';
import { PAYMENT_LINK_LIST, PaymentLinksService } from './payment-links.service.js';

@WalletController('payment_links')
export class PaymentLinksController {
  constructor(private readonly links: PaymentLinksService) {}

  @Post()
  @HttpCode(200)
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'Create a payment link to an invoice or a payment intent' })
  @ApiOkResponse({ type: PaymentLinkDto })
  @ApiErrors(Errors.E2000, E.E7001, E.E7002, E.E7003, E.E7004)
  create(@CurrentPrincipal() principal: Principal, @Body() dto: CreatePaymentLinkDto) {
    return this.links.create(principal, dto);
  }

  @Get()
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'List payment links' })
  @ApiListQuery(PAYMENT_LINK_LIST)
  @ApiListResponse(PaymentLinkDto)
  @ApiErrors(Errors.E2004)
  list(@CurrentPrincipal() principal: Principal, @ListQueryParams(PAYMENT_LINK_LIST) query: ListQuery) {
    return this.links.list(principal, query);
  }

  @Get(':id')
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'Retrieve a payment link' })
  @ApiOkResponse({ type: PaymentLinkDto })
  @ApiErrors(Errors.E4004)
  retrieve(@CurrentPrincipal() principal: Principal, @Param('id', IdOf('payment link')) id: string) {
    return this.links.retrieve(principal, id);
  }

  @Post(':id/deactivate')
  @HttpCode(200)
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'Deactivate a payment link: its page stops opening checkouts' })
  @ApiOkResponse({ type: PaymentLinkDto })
  @ApiErrors(Errors.E4004)
  deactivate(@CurrentPrincipal() principal: Principal, @Param('id', IdOf('payment link')) id: string) {
    return this.links.deactivate(principal, id);
  }
}
