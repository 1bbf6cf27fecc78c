import type Stripe from 'stripe';
import { toProviderDispute } from './stripe-disputes.js';

const dispute = (patch: Partial<Stripe.Dispute> = {}): Stripe.Dispute =>
  ({
    id: 'dp_1',
    object: 'dispute',
    amount: 125000,
    currency: 'thb',
    charge: 'ch_1',
    payment_intent: 'pi_1',
    reason: 'fraudulent',
    status: 'needs_response',
    created: 1_700_000_000,
    balance_transactions: [],
    evidence_details: { due_by: 1_700_604_800, has_evidence: false, past_due: false, submission_count: 0 },
    ...patch,
  }) as unknown as Stripe.Dispute;

const bt = (amount: number, fee: number, currency = 'thb') =>
  ({ object: 'balance_transaction', amount, fee, currency }) as Stripe.BalanceTransaction;

describe('Stripe dispute → ProviderDispute', () => {
  it('names the charge by its payment intent (the charge reference Stripe charges keep) and reads due_by', () => {
    expect(toProviderDispute(dispute())).toMatchObject({
      reference: 'dp_1',
      charge_reference: 'pi_1',
      status: 'needs_response',
      currency: 'THB',
      due_by: new Date(1_700_604_800_000),
      funds_withdrawn: false,
      fee: 0,
    });
    expect(toProviderDispute(dispute({ payment_intent: null })).charge_reference).toBe('ch_1');
  });

  it('reads the withdrawal and the fee from the balance transactions; another currency leaves the fee unknown', () => {
    expect(toProviderDispute(dispute({ balance_transactions: [bt(-125000, 1500)] }))).toMatchObject({
      funds_withdrawn: true,
      fee: 1500,
    });
    expect(toProviderDispute(dispute({ balance_transactions: [bt(-3500, 1500, 'usd')] })).fee).toBeNull();
  });

  it('keeps an inquiry under review an inquiry and refuses a status it does not know', () => {
    expect(toProviderDispute(dispute({ status: 'warning_under_review' })).status).toBe('warning_needs_response');
    expect(() => toProviderDispute(dispute({ status: 'mystery' as Stripe.Dispute.Status }))).toThrow(
      'unknown dispute status',
    );
  });
});
