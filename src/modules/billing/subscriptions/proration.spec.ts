import { changeProrations, prorate } from './proration.js';

const period = { start: new Date('2026-04-01T00:00:00Z'), end: new Date('2026-05-01T00:00:00Z') }; // 30 days

describe('proration', () => {
  it('takes the fraction of the period left, in seconds', () => {
    expect(prorate(30_000n, new Date('2026-04-16T00:00:00Z'), period)).toBe(15_000n);
    expect(prorate(30_000n, period.start, period)).toBe(30_000n);
    expect(prorate(30_000n, period.end, period)).toBe(0n);
  });

  it('rounds half up, and a credit is the exact negative of the charge', () => {
    // 1 satang × 1,296,000 s left of 2,592,000 s is exactly 0.5 -> 1.
    expect(prorate(1n, new Date('2026-04-16T00:00:00Z'), period)).toBe(1n);
    expect(prorate(-1n, new Date('2026-04-16T00:00:00Z'), period)).toBe(-1n);
    // 1,000 × 1/3 = 333.33 -> 333; 2,000 × 1/3 = 666.67 -> 667.
    const third = new Date('2026-04-21T00:00:00Z');
    expect(prorate(1_000n, third, period)).toBe(333n);
    expect(prorate(2_000n, third, period)).toBe(667n);
    expect(prorate(-2_000n, third, period)).toBe(-667n);
  });

  it('ignores milliseconds and clamps a change before the period to the whole period', () => {
    expect(prorate(30_000n, new Date('2026-04-16T00:00:00.999Z'), period)).toBe(15_000n);
    expect(prorate(30_000n, new Date('2026-03-01T00:00:00Z'), period)).toBe(30_000n);
  });

  it('stays exact for amounts past 2^53', () => {
    const big = 2n ** 60n;
    expect(prorate(big, new Date('2026-04-16T00:00:00Z'), period)).toBe(big / 2n);
  });

  it('credits the old cost and charges the new one', () => {
    const mid = new Date('2026-04-16T00:00:00Z');
    expect(changeProrations({ quantity: 1, amount: 10_000n }, { quantity: 3, amount: 30_000n }, mid, period)).toEqual([
      { amount: -5_000n, quantity: 1, description: 'Unused time on 1 ×' },
      { amount: 15_000n, quantity: 3, description: 'Remaining time on 3 ×' },
    ]);
    expect(changeProrations(null, { quantity: 2, amount: 20_000n }, mid, period)).toEqual([
      { amount: 10_000n, quantity: 2, description: 'Remaining time on 2 ×' },
    ]);
    expect(changeProrations({ quantity: 2, amount: 20_000n }, null, mid, period)).toEqual([
      { amount: -10_000n, quantity: 2, description: 'Unused time on 2 ×' },
    ]);
  });
});
