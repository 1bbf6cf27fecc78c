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
    expect(isTimeZone('Asia/Bangkok')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
  });
});
