import type Stripe from 'stripe';
import { toItem } from './stripe-settlements.js';

const bt = (fields: Partial<Stripe.BalanceTransaction> & Record<string, unknown>) =>
  ({
    id: 'txn_1',
    object: 'balance_transaction',
    amount: 0,
    fee: 0,
    net: 0,
    currency: 'thb',
    created: 1_790_000_000,
    ...fields,
  }) as Stripe.BalanceTransaction;

describe('Stripe settlement lines', () => {
  it("matches a charge by its payment intent, with Stripe's gross and fee", () => {
    const source = { id: 'ch_1', object: 'charge', payment_intent: 'pi_1' } as unknown as Stripe.Charge;
    expect(toItem(bt({ type: 'charge', amount: 125000, fee: 4563, source }))).toEqual(
      expect.objectContaining({
        id: 'txn_1',
        reference: 'pi_1',
        type: 'charge',
        amount: 125000,
        fee: 4563,
        currency: 'THB',
      }),
    );
  });

  it('matches a refund by its id and leaves the payout line out', () => {
    expect(toItem(bt({ type: 'refund', amount: -5000, source: 're_1' }))).toEqual(
      expect.objectContaining({ reference: 're_1', type: 'refund', amount: -5000 }),
    );
    expect(toItem(bt({ type: 'payout', amount: -100000, source: 'po_1' }))).toBeNull();
  });
});
