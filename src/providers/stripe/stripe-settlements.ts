import Stripe from 'stripe';
import {
  SettlementProviderError,
  type ProviderPayout,
  type SettlementItem,
  type SettlementProvider,
} from '../ports/settlement.port.js';

const PAGE = 100;

/**
 * Stripe's settlements: a payout's balance transactions (`GET /v1/balance_transactions?payout=po_…`,
 * 100 a page, `expand[]=data.source`), each with its gross `amount`, `fee` and `net`. A charge's line
 * is matched by its payment intent (`source.payment_intent`: the collection adapter stores `pi_…`),
 * a refund's by `re_…`; the payout's own line is not an item. Only automatic payouts have an itemized
 * settlement (https://docs.stripe.com/payouts/reconciliation).
 */
export class StripeSettlementProvider implements SettlementProvider {
  readonly name = 'stripe';

  constructor(private readonly stripe: Stripe) {}

  listPayouts(since: Date, limit: number): Promise<ProviderPayout[]> {
    return this.call(async () => {
      const page = await this.stripe.payouts.list({
        created: { gte: Math.floor(since.getTime() / 1000) },
        limit: Math.min(limit, PAGE),
      });
      return page.data.map(toPayout).sort((a, b) => a.created_at.getTime() - b.created_at.getTime());
    });
  }

  retrievePayout(reference: string): Promise<ProviderPayout> {
    return this.call(async () => toPayout(await this.stripe.payouts.retrieve(reference)));
  }

  settlementItems(reference: string, sink: (page: SettlementItem[]) => Promise<void>): Promise<number> {
    return this.call(async () => {
      let count = 0;
      let after: string | undefined;
      for (;;) {
        const page = await this.stripe.balanceTransactions.list({
          payout: reference,
          limit: PAGE,
          expand: ['data.source'],
          ...(after ? { starting_after: after } : {}),
        });
        const items = page.data.flatMap((t) => toItem(t) ?? []);
        if (items.length > 0) await sink(items);
        count += items.length;
        if (!page.has_more || page.data.length === 0) return count;
        after = page.data[page.data.length - 1].id;
      }
    });
  }

  private async call<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if (!(err instanceof Stripe.errors.StripeError)) throw err;
      const refused = err instanceof Stripe.errors.StripeInvalidRequestError || err.statusCode === 404;
      throw new SettlementProviderError(`Stripe: ${err.message}`, refused);
    }
  }
}

function toPayout(p: Stripe.Payout): ProviderPayout {
  return {
    reference: p.id,
    amount: p.amount,
    currency: p.currency.toUpperCase(),
    status: p.status,
    created_at: new Date(p.created * 1000),
  };
}

type Source = { id: string; object?: string; payment_intent?: string | { id: string } | null };

/** One balance transaction as a settlement line; none for the payout's own line. */
export function toItem(t: Stripe.BalanceTransaction): SettlementItem | null {
  if (t.type === 'payout' || !t.source) return null;
  const source = (typeof t.source === 'string' ? { id: t.source } : t.source) as Source;
  const intent = typeof source.payment_intent === 'string' ? source.payment_intent : source.payment_intent?.id;
  return {
    id: t.id,
    reference: intent ?? source.id,
    type: t.type === 'payment' ? 'charge' : t.type === 'payment_refund' ? 'refund' : t.type,
    amount: t.amount,
    fee: t.fee,
    currency: t.currency.toUpperCase(),
    created_at: new Date(t.created * 1000),
  };
}
