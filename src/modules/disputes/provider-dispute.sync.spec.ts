import { planProviderSync, type DisputeBook } from './provider-dispute.sync.js';

const open: DisputeBook = { status: 'needs_response', funds_withdrawn: true, fee_booked: 1500 };

describe('planProviderSync', () => {
  it('books the withdrawal and the fee of a new chargeback once', () => {
    const plan = planProviderSync(null, { status: 'needs_response', funds_withdrawn: true, fee: 1500 }, 0);
    expect(plan).toEqual({
      status: 'needs_response',
      withdraw: true,
      feeDelta: 1500,
      close: null,
      lostFee: 0,
      reinstated: false,
    });
    expect(planProviderSync(open, { status: 'needs_response', funds_withdrawn: true, fee: 1500 }, 0)).toMatchObject({
      withdraw: false,
      feeDelta: 0,
      close: null,
    });
  });

  it('books nothing for an inquiry and withdraws when it becomes a chargeback', () => {
    const inquiry = planProviderSync(null, { status: 'warning_needs_response', funds_withdrawn: false, fee: 0 }, 0);
    expect(inquiry).toMatchObject({ withdraw: false, feeDelta: 0, close: null });
    const book: DisputeBook = { status: 'warning_needs_response', funds_withdrawn: false, fee_booked: 0 };
    expect(planProviderSync(book, { status: 'needs_response', funds_withdrawn: true, fee: 1500 }, 0)).toMatchObject({
      status: 'needs_response',
      withdraw: true,
      feeDelta: 1500,
    });
  });

  it('won reinstates the withdrawn funds; a provider that returns its fee books the return', () => {
    expect(planProviderSync(open, { status: 'won', funds_withdrawn: true, fee: 0 }, 0)).toEqual({
      status: 'won',
      withdraw: false,
      feeDelta: -1500,
      close: 'won',
      lostFee: 0,
      reinstated: true,
    });
  });

  it('lost keeps the withdrawal; the table fee only when the provider reports none (Opn)', () => {
    expect(planProviderSync(open, { status: 'lost', funds_withdrawn: true, fee: 1500 }, 50000)).toMatchObject({
      close: 'lost',
      lostFee: 0,
      feeDelta: 0,
    });
    const opn: DisputeBook = { status: 'under_review', funds_withdrawn: true, fee_booked: 0 };
    expect(planProviderSync(opn, { status: 'lost', funds_withdrawn: true, fee: null }, 50000)).toMatchObject({
      close: 'lost',
      lostFee: 50000,
      feeDelta: 0,
    });
  });

  it('a first sight of a lost dispute withdraws and loses in one go', () => {
    expect(planProviderSync(null, { status: 'lost', funds_withdrawn: false, fee: null }, 50000)).toMatchObject({
      withdraw: true,
      close: 'lost',
      lostFee: 50000,
    });
  });

  it('never moves back: stale snapshots and closed disputes change nothing', () => {
    const review: DisputeBook = { status: 'under_review', funds_withdrawn: true, fee_booked: 1500 };
    expect(planProviderSync(review, { status: 'needs_response', funds_withdrawn: true, fee: 1500 }, 0)).toMatchObject({
      status: 'under_review',
      close: null,
    });
    expect(
      planProviderSync({ ...review, status: 'lost' }, { status: 'won', funds_withdrawn: true, fee: 0 }, 0),
    ).toEqual({ status: 'lost', withdraw: false, feeDelta: 0, close: null, lostFee: 0, reinstated: false });
    expect(planProviderSync(open, { status: 'warning_closed', funds_withdrawn: false, fee: 1500 }, 0)).toMatchObject({
      status: 'needs_response',
      close: null,
    });
  });
});
