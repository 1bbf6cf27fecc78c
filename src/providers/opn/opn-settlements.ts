import {
  SettlementProviderError,
  type ProviderPayout,
  type SettlementItem,
  type SettlementProvider,
} from '../ports/settlement.port.js';
import type { OpnClient, OpnObject } from './opn-client.js';
import { failureFacts } from './opn-errors.js';

/** Opn's transfer (https://docs.opn.ooo/transfers-api), as far as settlement reads it. */
interface OpnTransfer extends OpnObject {
  id: string;
  amount: number;
  currency: string;
  sent?: boolean;
  paid?: boolean;
  created_at?: string;
  created?: string;
}

/** Opn's transaction (https://docs.opn.ooo/transactions-api): one movement of the Opn balance. */
interface OpnTransaction extends OpnObject {
  id: string;
  amount: number;
  currency: string;
  direction?: 'credit' | 'debit';
  type?: 'credit' | 'debit';
  /** What the movement is (`charge.capture`, `charge.capture.fee`, `refund`, `transfer`, …). */
  key?: string;
  /** The charge, refund, transfer or dispute it belongs to (`origin`; `source` in older versions). */
  origin?: string;
  source?: string;
  created_at?: string;
  created?: string;
}

interface OpnList<T> extends OpnObject {
  data: T[];
}

const PAGE = 100;
const createdOf = (o: { created_at?: string; created?: string }) => new Date(o.created_at ?? o.created ?? 0);

/**
 * Opn's settlements: a transfer to the merchant's own bank account settles the balance's
 * transactions since the transfer before it. Opn has no "transactions of a transfer" query, so the
 * window is the two transfers' creation times: (previous transfer, this transfer], read with
 * `GET /transactions?from&to` a page of 100 at a time, oldest first. A fee movement (its key ends in
 * `.fee` or `.fee_vat`) is the fee of its origin's line; a movement of a transfer is not an item.
 */
export class OpnSettlementProvider implements SettlementProvider {
  readonly name = 'opn';

  constructor(private readonly client: OpnClient) {}

  listPayouts(since: Date, limit: number): Promise<ProviderPayout[]> {
    return this.call(async () => {
      const query = new URLSearchParams({
        from: since.toISOString(),
        limit: String(Math.min(limit, PAGE)),
        order: 'chronological',
      });
      const list = await this.client.get<OpnList<OpnTransfer>>(`/transfers?${query.toString()}`);
      return (list.data ?? []).filter((t) => t.object === 'transfer').map(toPayout);
    });
  }

  retrievePayout(reference: string): Promise<ProviderPayout> {
    return this.call(async () => toPayout(await this.client.get<OpnTransfer>(`/transfers/${reference}`)));
  }

  settlementItems(reference: string, sink: (page: SettlementItem[]) => Promise<void>): Promise<number> {
    return this.call(async () => {
      const transfer = await this.client.get<OpnTransfer>(`/transfers/${reference}`);
      const to = createdOf(transfer);
      const before = await this.client.get<OpnList<OpnTransfer>>(
        `/transfers?${new URLSearchParams({ to: to.toISOString(), limit: '2', order: 'reverse_chronological' }).toString()}`,
      );
      const previous = (before.data ?? []).find((t) => t.id !== transfer.id && createdOf(t) < to);
      const from = previous ? new Date(createdOf(previous).getTime() + 1) : new Date(0);
      let count = 0;
      for (let offset = 0; ; offset += PAGE) {
        const query = new URLSearchParams({
          from: from.toISOString(),
          to: to.toISOString(),
          limit: String(PAGE),
          offset: String(offset),
          order: 'chronological',
        });
        const page = await this.client.get<OpnList<OpnTransaction>>(`/transactions?${query.toString()}`);
        const items = (page.data ?? []).flatMap((t) => toItem(t) ?? []);
        if (items.length > 0) await sink(items);
        count += items.length;
        if ((page.data ?? []).length < PAGE) return count;
      }
    });
  }

  private async call<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      const facts = failureFacts(err);
      if (!facts) throw err;
      throw new SettlementProviderError(facts.message, !facts.retryable && !facts.outcomeUnknown);
    }
  }
}

function toPayout(t: OpnTransfer): ProviderPayout {
  return {
    reference: t.id,
    amount: Number(t.amount),
    currency: String(t.currency).toUpperCase(),
    status: t.paid ? 'paid' : t.sent ? 'in_transit' : 'pending',
    created_at: createdOf(t),
  };
}

/** One transaction as a settlement line; none for the movement of a transfer itself. */
export function toItem(t: OpnTransaction): SettlementItem | null {
  const origin = t.origin ?? t.source ?? null;
  if (!origin || origin.startsWith('trsf_')) return null;
  const key = t.key ?? '';
  const signed = (t.direction ?? t.type) === 'debit' ? -Number(t.amount) : Number(t.amount);
  const isFee = /\.fee(_vat)?$/.test(key);
  return {
    id: t.id,
    reference: origin,
    type: origin.startsWith('rfnd_') ? 'refund' : origin.startsWith('chrg_') ? 'charge' : key || 'adjustment',
    amount: isFee ? 0 : signed,
    fee: isFee ? -signed : 0,
    currency: String(t.currency).toUpperCase(),
    created_at: createdOf(t),
  };
}
