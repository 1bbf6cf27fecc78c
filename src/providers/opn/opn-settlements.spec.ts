import { toItem } from './opn-settlements.js';

const base = { object: 'transaction', currency: 'thb', created_at: '2026-11-01T10:00:00Z' };

describe('Opn settlement lines', () => {
  it("reads a charge's capture as its gross and the fee movement as its fee", () => {
    expect(
      toItem({ ...base, id: 'trxn_1', amount: 125000, direction: 'credit', key: 'charge.capture', origin: 'chrg_a' }),
    ).toEqual(
      expect.objectContaining({ reference: 'chrg_a', type: 'charge', amount: 125000, fee: 0, currency: 'THB' }),
    );
    expect(
      toItem({ ...base, id: 'trxn_2', amount: 4563, direction: 'debit', key: 'charge.capture.fee', origin: 'chrg_a' }),
    ).toEqual(expect.objectContaining({ reference: 'chrg_a', amount: 0, fee: 4563 }));
    expect(
      toItem({
        ...base,
        id: 'trxn_3',
        amount: 300,
        direction: 'debit',
        key: 'charge.capture.fee_vat',
        origin: 'chrg_a',
      }),
    ).toEqual(expect.objectContaining({ amount: 0, fee: 300 }));
  });

  it('signs a refund negative, reads the older `source`/`type` names, and leaves a transfer out', () => {
    expect(
      toItem({ ...base, id: 'trxn_4', amount: 5000, direction: 'debit', key: 'refund', origin: 'rfnd_b' }),
    ).toEqual(expect.objectContaining({ reference: 'rfnd_b', type: 'refund', amount: -5000, fee: 0 }));
    expect(toItem({ ...base, id: 'trxn_5', amount: 700, type: 'credit', source: 'chrg_c' })).toEqual(
      expect.objectContaining({ reference: 'chrg_c', amount: 700 }),
    );
    expect(
      toItem({ ...base, id: 'trxn_6', amount: 9000, direction: 'debit', key: 'transfer', origin: 'trsf_d' }),
    ).toBeNull();
  });
});
