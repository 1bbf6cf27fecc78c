import { Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Principal } from '../../../common/context/principal.js';
import { Errors } from '../../../common/errors/error-catalog.js';
import { ApiErrors, Auth, CurrentPrincipal, WalletController } from '../../../common/http/decorators.js';
import { IdOf } from '../../../common/http/id-param.pipe.js';
import { ApiListQuery, ApiListResponse, ListQueryParams, type ListQuery } from '../../../common/list/index.js';
import {
  BilledMeterEventDto,
  InvoiceLineObjectDto,
  UpcomingInvoiceDto,
  UpcomingQueryDto,
} from './dto/invoice-line.dto.js';
import { INVOICE_LINE_LIST, InvoiceLinesService, LINE_EVENT_LIST } from './invoice-lines.service.js';
import { UpcomingInvoicesService } from './upcoming-invoices.service.js';

/** A subscription invoice's lines, the meter events each metered line counts, and the upcoming invoice. */
@WalletController('invoices')
export class InvoicingController {
  constructor(
    private readonly lines: InvoiceLinesService,
    private readonly upcomingInvoices: UpcomingInvoicesService,
  ) {}

  @Get('upcoming')
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({
    summary: "Preview a subscription's next invoice",
    description:
      'The invoice the period close would make now: licensed items of the next period, pending prorations and ' +
      "the usage so far of the current period's meter events, with discount and tax. Nothing is written.",
  })
  @ApiOkResponse({ type: UpcomingInvoiceDto })
  @ApiErrors(Errors.E2004, Errors.E4004)
  upcoming(@CurrentPrincipal() principal: Principal, @Query() query: UpcomingQueryDto) {
    return this.upcomingInvoices.upcoming(principal, query.subscription_id);
  }

  @Get(':id/lines')
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: "List an invoice's lines (metered lines with their usage and digest)" })
  @ApiListQuery(INVOICE_LINE_LIST)
  @ApiListResponse(InvoiceLineObjectDto)
  @ApiErrors(Errors.E2004, Errors.E4004)
  list(
    @CurrentPrincipal() principal: Principal,
    @Param('id', IdOf('invoice')) id: string,
    @ListQueryParams(INVOICE_LINE_LIST) query: ListQuery,
  ) {
    return this.lines.list(principal, id, query);
  }

  @Get(':id/lines/:line_id/meter_events')
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({
    summary: 'List the meter events a metered line counts',
    description: 'In event id order. Each event is counted by exactly one line (docs/BILLING.md).',
  })
  @ApiListQuery(LINE_EVENT_LIST)
  @ApiListResponse(BilledMeterEventDto)
  @ApiErrors(Errors.E2004, Errors.E4004)
  meterEvents(
    @CurrentPrincipal() principal: Principal,
    @Param('id', IdOf('invoice')) id: string,
    @Param('line_id', IdOf('invoice line')) lineId: string,
    @ListQueryParams(LINE_EVENT_LIST) query: ListQuery,
  ) {
    return this.lines.meterEvents(principal, id, lineId, query);
  }
}
