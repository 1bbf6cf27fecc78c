import { AuthFailureBursts, BURST_THRESHOLD, BURST_WINDOW_MS } from './auth-failure-bursts.js';

describe('failed authentication bursts', () => {
  const failure = { applicationId: 'app-1', clientAddress: '192.0.2.1', credential: 'sk_test_ABCDEFGHIJKL' };

  it('gives one window per address, credential and minute once the minute is over, counting every failure', () => {
    const bursts = new AuthFailureBursts();
    const start = 10 * BURST_WINDOW_MS;
    for (let i = 0; i < 40; i++) bursts.note(failure, start + i * 100);
    bursts.note({ ...failure, clientAddress: '192.0.2.2' }, start);
    expect(bursts.takeEnded(start + BURST_WINDOW_MS - 1)).toEqual([]);
    expect(bursts.takeEnded(start + BURST_WINDOW_MS)).toEqual([{ ...failure, windowStart: start, count: 40 }]);
    expect(bursts.takeEnded(start + 2 * BURST_WINDOW_MS)).toEqual([]);
  });

  it('writes nothing for fewer failures than the threshold (a typo is not a burst)', () => {
    const bursts = new AuthFailureBursts();
    for (let i = 0; i < BURST_THRESHOLD - 1; i++) bursts.note(failure, 0);
    expect(bursts.takeEnded(BURST_WINDOW_MS)).toEqual([]);
  });

  it('stays bounded: past its windows, failures count in one overflow window', () => {
    const bursts = new AuthFailureBursts();
    for (let i = 0; i < 10_005; i++) bursts.note({ ...failure, clientAddress: `10.0.${i >> 8}.${i & 255}` }, 0);
    const ended = bursts.takeEnded(BURST_WINDOW_MS);
    expect(ended).toEqual([
      { applicationId: null, clientAddress: '(overflow)', credential: '(overflow)', windowStart: 0, count: 5 },
    ]);
  });
});
