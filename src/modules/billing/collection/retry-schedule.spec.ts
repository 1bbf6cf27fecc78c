import { dueDateAfter, nextAttemptAt } from './retry-schedule.js';

const T0 = new Date('2026-01-01T00:00:00Z');
const day = (n: number) => new Date(T0.getTime() + n * 86_400_000);

describe('nextAttemptAt', () => {
  it('walks the default schedule 1, 3, 5 days after the first attempt, then stops', () => {
    const schedule = [1, 3, 5];
    let at = T0;
    const seen: Array<Date | null> = [];
    for (let made = 1; made <= 4; made += 1) {
      const next = nextAttemptAt(at, made, schedule);
      seen.push(next);
      if (next) at = next;
    }
    expect(seen).toEqual([day(1), day(3), day(5), null]);
  });

  it('schedules nothing with an empty schedule (no retries)', () => {
    expect(nextAttemptAt(T0, 1, [])).toBeNull();
  });

  it('follows any ascending schedule', () => {
    expect(nextAttemptAt(day(2), 2, [2, 7])).toEqual(day(7));
    expect(nextAttemptAt(day(7), 3, [2, 7])).toBeNull();
  });
});

describe('dueDateAfter', () => {
  it('is whole days after finalization (30 by default on subscriptions)', () => {
    expect(dueDateAfter(T0, 30)).toEqual(new Date('2026-01-31T00:00:00Z'));
    expect(dueDateAfter(T0, 0)).toEqual(T0);
  });
});
