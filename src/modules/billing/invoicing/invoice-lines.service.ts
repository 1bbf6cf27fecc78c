import { Injectable } from '@nestjs/common';
import type { Principal } from '../../../common/context/principal.js';
import { AppError } from '../../../common/errors/app-error.js';
import { Errors } from '../../../common/errors/error-catalog.js';
import { ListFilters, runList, type ListEnvelope, type ListQuery, type ListSpec } from '../../../common/list/index.js';
import { InvoicesService } from '../../checkout/index.js';
import { MeterUsageService } from '../../meter/index.js';
import { toInvoiceLineResponse, type InvoiceLineResponse } from './invoice-lines.responses.js';
import { InvoicingRepository } from './invoicing.repository.js';

export const INVOICE_LINE_LIST: ListSpec = {
  filters: {
    id: ListFilters.uuid,
    type: ListFilters.oneOf(['subscription', 'proration', 'metered', 'metered_earlier']),
    price: { type: 'uuid', column: 'l.price_id' },
    created_at: ListFilters.timestamp,
  },
  sortable: ['created_at'],
  search: ['id', 'description'],
  defaultSort: { field: 'created_at', direction: 'asc' },
};

/** Meter events of a line come in event id order (UUIDv7: the order they were stored). */
export const LINE_EVENT_LIST: ListSpec = {
  filters: {},
  sortable: ['created_at'],
  search: [],
  defaultSort: { field: 'created_at', direction: 'asc' },
};

/** An invoice's lines and, for a metered line, the meter events it counts (docs/BILLING.md). */
@Injectable()
export class InvoiceLinesService {
  constructor(
    private readonly repository: InvoicingRepository,
    private readonly invoices: InvoicesService,
    private readonly usage: MeterUsageService,
  ) {}

  async list(principal: Principal, invoiceId: string, query: ListQuery): Promise<ListEnvelope<InvoiceLineResponse>> {
    await this.invoices.retrieve(principal, invoiceId);
    return runList(
      this.repository.linesQuery(principal.application.id, invoiceId),
      INVOICE_LINE_LIST,
      query,
      toInvoiceLineResponse,
    );
  }

  async meterEvents(principal: Principal, invoiceId: string, lineId: string, query: ListQuery) {
    await this.invoices.retrieve(principal, invoiceId);
    const line = await this.repository.findLine(principal.application.id, invoiceId, lineId);
    if (!line) throw new AppError(Errors.E4004, `Invoice "${invoiceId}" has no line "${lineId}".`);
    const page = query.useCursor
      ? { after: query.startingAfter, before: query.endingBefore, limit: query.limit + 1 }
      : { offset: (query.page - 1) * query.limit, limit: query.limit };
    const { rows, total } = await this.usage.eventsOfLine(principal.application.id, line.id, page);
    const hasMore = query.useCursor && rows.length > query.limit;
    const shown = hasMore ? (query.endingBefore ? rows.slice(1) : rows.slice(0, query.limit)) : rows;
    return {
      object: 'list' as const,
      data: shown.map((e) => ({
        id: e.id,
        object: 'billing.meter_event' as const,
        livemode: principal.livemode,
        identifier: e.identifier,
        event_name: e.event_name,
        customer_id: e.customer_id,
        value: e.value,
        timestamp: e.occurred_at.toISOString(),
        created_at: e.created_at.toISOString(),
      })),
      page: query.useCursor ? 1 : query.page,
      limit: query.limit,
      total_items: total,
      total_pages: Math.max(1, Math.ceil(total / query.limit)),
      ...(query.useCursor ? { has_more: hasMore } : {}),
    };
  }
}
