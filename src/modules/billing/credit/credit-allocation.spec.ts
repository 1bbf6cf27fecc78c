import { allocateCredit, type DrawableGrant } from './credit-allocation.js';

const grant = (id: string, remaining: number, extra: Partial<DrawableGrant> = {}): DrawableGrant => ({
  id,
  remaining,
  price_ids: [],
  expires_at: null,
  ...extra,
});

describe('allocateCredit', () => {
  it('draws the grant expiring first, then the one that never expires', () => {
    const draws = allocateCredit(
      [grant('b', 500), grant('a', 300, { expires_at: new Date('2027-01-01T00:00:00Z') })],
      [{ price_id: 'p', amount: 600 }],
    );
    expect(draws).toEqual([
      { grant_id: 'a', line_index: 0, amount: 300 },
      { grant_id: 'b', line_index: 0, amount: 300 },
    ]);
  });

  it('pays a line only from grants that apply to its price', () => {
    const draws = allocateCredit(
      [grant('only-x', 1000, { price_ids: ['x'] }), grant('any', 100)],
      [
        { price_id: 'y', amount: 400 },
        { price_id: 'x', amount: 400 },
        { price_id: null, amount: 50 },
      ],
    );
    expect(draws).toEqual([
      { grant_id: 'any', line_index: 0, amount: 100 },
      { grant_id: 'only-x', line_index: 1, amount: 400 },
    ]);
  });

  it('prefers a restricted grant to an unrestricted one expiring at the same time', () => {
    const draws = allocateCredit(
      [grant('a-any', 100), grant('b-x', 100, { price_ids: ['x'] })],
      [{ price_id: 'x', amount: 150 }],
    );
    expect(draws.map((d) => [d.grant_id, d.amount])).toEqual([
      ['b-x', 100],
      ['a-any', 50],
    ]);
  });

  it('never draws more than the limit, a line or a grant holds, and skips negative lines', () => {
    const draws = allocateCredit(
      [grant('g', 1000)],
      [
        { price_id: 'p', amount: -200 },
        { price_id: 'p', amount: 300 },
        { price_id: 'q', amount: 300 },
      ],
      450,
    );
    expect(draws).toEqual([
      { grant_id: 'g', line_index: 1, amount: 300 },
      { grant_id: 'g', line_index: 2, amount: 150 },
    ]);
  });
});
