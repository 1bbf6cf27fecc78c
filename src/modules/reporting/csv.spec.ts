import { csvLine, decimal, isTimeZone, localTime } from './csv.js';

describe('report CSV helpers', () => {
  it('quotes fields with commas, quotes and line breaks only', () => {
    expect(csvLine(['a', 'b,c', 'say "hi"', 'two\nlines', ''])).toBe('a,"b,c","say ""hi""","two\nlines",\r\n');
  });

  it('writes minor units as decimals of the major unit', () => {
    expect(decimal(12345, 100)).toBe('123.45');
    expect(decimal('-5', 100)).toBe('-0.05');
    expect(decimal(0, 100)).toBe('0.00');
    expect(decimal('9007199254740993', 100)).toBe('90071992547409.93');
    expect(decimal(500, 1)).toBe('500');
    expect(decimal(-1234, 1000)).toBe('-1.234');
  });

  it('writes times in the report time zone', () => {
    expect(localTime('2026-11-28T17:30:05.000Z', 'Asia/Bangkok')).toBe('2026-11-29 00:30:05');
    expect(localTime(new Date('2026-11-28T17:30:05.000Z'), 'UTC')).toBe('2026-11-28 17:30:05');
    expect(localTime(null, 'UTC')).toBe('');
    // Either side of a daylight-saving change, from the offset of each minute.
    expect(localTime('2026-03-29T00:59:59.900Z', 'Europe/Berlin')).toBe('2026-03-29 01:59:59');
    expect(localTime('2026-03-29T01:00:00.000Z', 'Europe/Berlin')).toBe('2026-03-29 03:00:00');
    expect(localTime('2026-11-01T05:59:59.000Z', 'America/New_York')).toBe('2026-11-01 01:59:59');
    expect(localTime('2026-11-01T06:00:00.000Z', 'America/New_York')).toBe('2026-11-01 01:00:00');
    expect(localTime('2026-06-01T12:00:00.000Z', 'Asia/Kathmandu')).toBe('2026-06-01 17:45:00');
    expect(isTimeZone('Asia/Bangkok')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
  });
});
