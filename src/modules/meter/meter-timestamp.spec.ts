import { parseMeterTimestamp } from './meter-timestamp.js';

const at = (raw: string) => {
  const parsed = parseMeterTimestamp(raw);
  return 'date' in parsed ? parsed.date.toISOString() : parsed.problem;
};

describe('meter event timestamp', () => {
  it("keeps the contract's YYYY-MM-DD HH:MM:SS, as UTC", () => {
    expect(at('2026-11-28 12:30:05')).toBe('2026-11-28T12:30:05.000Z');
  });

  it('accepts RFC 3339 with Z or an offset, a fraction dropped to the second', () => {
    expect(at('2026-11-28T12:30:05Z')).toBe('2026-11-28T12:30:05.000Z');
    expect(at('2026-11-28t12:30:05z')).toBe('2026-11-28T12:30:05.000Z');
    expect(at('2026-11-28T19:30:05+07:00')).toBe('2026-11-28T12:30:05.000Z');
    expect(at('2026-11-28T02:30:05-10:00')).toBe('2026-11-28T12:30:05.000Z');
    expect(at('2026-11-28T12:30:05.987654Z')).toBe('2026-11-28T12:30:05.000Z');
  });

  it('refuses other shapes and dates or offsets that do not exist', () => {
    for (const raw of [
      '2026-11-28',
      '2026-11-28T12:30:05',
      '2026-11-28 12:30:05Z',
      '1764333005',
      '2026-11-28T12:30Z',
    ]) {
      expect(at(raw)).toBe('shape');
    }
    for (const raw of ['2026-02-30 10:00:00', '2026-11-28T24:00:00Z', '2026-11-28T12:00:00+24:00']) {
      expect(at(raw)).toBe('not_real');
    }
  });
});
