import { Body, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { Errors } from '../../../common/errors/error-catalog.js';
import type { Principal } from '../../../common/context/principal.js';
import { ApiErrors, Auth, CurrentPrincipal, WalletController } from '../../../common/http/decorators.js';
import { IdOf } from '../../../common/http/id-param.pipe.js';
import { ApiListQuery, ApiListResponse, ListQueryParams, type ListQuery } from '../../../common/list/index.js';
import { CheckoutErrors as E } from '../checkout.errors.js';
import { TERMS_ERRORS } from './terms-errors.js';
import { CreateInvoiceDto } from '../dto/invoice.dto.js';
import { InvoiceDto } from '../dto/responses.dto.js';
import { INVOICE_LIST, InvoicesService } from './invoices.service.js';

@WalletController('invoices')
export class InvoicesController {
  constructor(private readonly invoices: InvoicesService) {}

  @Post()
  @HttpCode(200)
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'Create a draft invoice (a collection target once finalized)' })
  @ApiOkResponse({ type: InvoiceDto })
  @ApiErrors(...TERMS_ERRORS)
  create(@CurrentPrincipal() principal: Principal, @Body() dto: CreateInvoiceDto) {
    return this.invoices.create(principal, dto);
  }

  @Get(':id')
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'Retrieve an invoice' })
  @ApiOkResponse({ type: InvoiceDto })
  @ApiErrors(Errors.E4004)
  retrieve(@CurrentPrincipal() principal: Principal, @Param('id', IdOf('invoice')) id: string) {
    return this.invoices.retrieve(principal, id);
  }

  @Get()
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'List invoices' })
  @ApiListQuery(INVOICE_LIST)
  @ApiListResponse(InvoiceDto)
  @ApiErrors(Errors.E2004)
  list(@CurrentPrincipal() principal: Principal, @ListQueryParams(INVOICE_LIST) query: ListQuery) {
    return this.invoices.list(principal, query);
  }

  @Post(':id/finalize')
  @HttpCode(200)
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'Finalize a draft invoice: it becomes open and payable' })
  @ApiOkResponse({ type: InvoiceDto })
  @ApiErrors(Errors.E4004, E.E7015)
  finalize(@CurrentPrincipal() principal: Principal, @Param('id', IdOf('invoice')) id: string) {
    return this.invoices.finalize(principal, id);
  }

  @Post(':id/void')
  @HttpCode(200)
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'Void a draft or open invoice' })
  @ApiOkResponse({ type: InvoiceDto })
  @ApiErrors(Errors.E4004, E.E7015)
  void(@CurrentPrincipal() principal: Principal, @Param('id', IdOf('invoice')) id: string) {
    return this.invoices.void(principal, id);
  }
}
