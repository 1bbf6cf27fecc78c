import { Injectable } from '@nestjs/common';
import { RequestContext } from '../../common/context/request-context.js';
import { AppError } from '../../common/errors/app-error.js';
import { Errors } from '../../common/errors/error-catalog.js';
import { isUuid } from '../../common/ids.js';
import { FilterPatterns, runList, type ListEnvelope, type ListQuery, type ListSpec } from '../../common/list/index.js';
import { LedgerChargesService, type Charge, type ChargeResponse } from '../ledger/index.js';
import { CollectionRepository } from './checkout.repository.js';
import { toInvoiceResponse } from './checkout.responses.js';
import { Invoice } from './entities/invoice.entity.js';

export const CHARGE_LIST: ListSpec = {
  filters: {
    id: { type: 'uuid' },
    status: { type: 'text', values: ['pending', 'succeeded', 'failed', 'canceled'] },
    customer_id: { type: 'uuid' },
    payment_intent: { type: 'text', pattern: FilterPatterns.word },
    invoice_id: { type: 'uuid' },
    currency: { type: 'text', pattern: FilterPatterns.currency },
    amount: { type: 'integer' },
    paid: { type: 'boolean' },
    disputed: { type: 'boolean' },
    failure_code: { type: 'text', pattern: FilterPatterns.word },
    provider: { type: 'text', pattern: FilterPatterns.word },
    created_at: { type: 'timestamp' },
    updated_at: { type: 'timestamp' },
  },
  sortable: ['created_at', 'amount'],
  search: ['id', 'reference_id', 'payment_intent', 'failure_code'],
};

/** Reading charges: the ledger stores them, collection creates them and answers for them. */
@Injectable()
export class ChargesService {
  constructor(
    private readonly repository: CollectionRepository,
    private readonly charges: LedgerChargesService,
    private readonly context: RequestContext,
  ) {}

  async retrieve(id: string): Promise<ChargeResponse> {
    const charge = isUuid(id) ? await this.charges.findById(this.context.application.id, id) : null;
    if (!charge) throw new AppError(Errors.E4004, `No charge with id "${id}".`);
    return (await this.embed([charge]))[0];
  }

  async list(query: ListQuery): Promise<ListEnvelope<ChargeResponse>> {
    const page = await runList(this.repository.charges(this.context.application.id), CHARGE_LIST, query, (c) => c);
    return { ...page, data: await this.embed(page.data) };
  }

  private async embed(charges: Charge[]): Promise<ChargeResponse[]> {
    const invoices = await this.repository.byIds(
      Invoice,
      this.context.application.id,
      charges.map((c) => c.invoice_id),
    );
    return this.charges.toResponses(charges, (c) => {
      const invoice = invoices.get(c.invoice_id ?? '');
      return invoice ? toInvoiceResponse(invoice) : null;
    });
  }
}
