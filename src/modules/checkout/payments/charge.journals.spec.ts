import { chargeJournal, type ChargeJournalInput } from './charge.journals.js';

const availableOn = new Date('2026-01-08T00:00:00Z');
const charge = { id: 'ch_1', application_id: 'app_1', amount: 10_000, currency: 'THB' };
const balances = { clearing: 'b_clearing', fees: 'b_fees', merchant: 'b_merchant', connected: null };
const common = { currency: 'THB', source: 'payment', parent_event_type: 'charge', parent_event_id: 'ch_1' };

function journal(input: Partial<ChargeJournalInput>) {
  return chargeJournal({ charge, providerFee: 365, applicationFee: 0, availableOn, balances, ...input });
}

const sum = (entries: Array<{ amount: number }>) => entries.reduce((total, e) => total + e.amount, 0);

describe('chargeJournal', () => {
  it('credits the merchant the gross less the provider fee, held until available_on', () => {
    const { entries, net } = journal({});
    expect(net).toBe(9_635);
    expect(entries).toEqual([
      {
        ...common,
        balance_id: 'b_clearing',
        amount: -10_000,
        state: 'available',
        type: 'charge',
        category: 'clearing',
      },
      {
        ...common,
        balance_id: 'b_fees',
        amount: 365,
        state: 'available',
        type: 'fee',
        category: 'provider_fee',
        reporting_category: 'fee',
      },
      {
        ...common,
        balance_id: 'b_merchant',
        amount: 9_635,
        state: 'hold',
        available_on: availableOn,
        type: 'charge',
        category: 'payment',
        reporting_category: 'charge',
        fee: 365,
        fee_details: [{ type: 'provider_fee', amount: 365, currency: 'THB', application: null }],
      },
    ]);
    expect(sum(entries)).toBe(0);
  });

  it('ignores an application fee without a destination', () => {
    expect(journal({ applicationFee: 500 })).toEqual(journal({}));
  });

  it('splits a destination charge: the connected account its share, the merchant the application fee', () => {
    const { entries, net } = journal({ applicationFee: 500, balances: { ...balances, connected: 'b_connected' } });
    expect(net).toBe(9_135);
    expect(entries.slice(2)).toEqual([
      {
        ...common,
        balance_id: 'b_connected',
        amount: 9_135,
        state: 'hold',
        available_on: availableOn,
        type: 'charge',
        category: 'destination_payment',
        reporting_category: 'charge',
        transfer_id: 'ch_1',
        fee: 865,
        fee_details: [
          { type: 'provider_fee', amount: 365, currency: 'THB', application: null },
          { type: 'application_fee', amount: 500, currency: 'THB', application: 'app_1' },
        ],
      },
      {
        ...common,
        balance_id: 'b_merchant',
        amount: 500,
        state: 'hold',
        available_on: availableOn,
        type: 'application_fee',
        category: 'application_fee',
        reporting_category: 'application_fee',
      },
    ]);
    expect(sum(entries)).toBe(0);
  });

  it('books no application-fee entry for a destination charge without a fee', () => {
    const { entries, net } = journal({ balances: { ...balances, connected: 'b_connected' } });
    expect(net).toBe(9_635);
    expect(entries.map((e) => [e.balance_id, e.amount])).toEqual([
      ['b_clearing', -10_000],
      ['b_fees', 365],
      ['b_connected', 9_635],
    ]);
    expect(entries[2].fee_details).toEqual([{ type: 'provider_fee', amount: 365, currency: 'THB', application: null }]);
  });
});
