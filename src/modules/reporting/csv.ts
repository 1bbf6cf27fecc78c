/** RFC 4180 CSV: a field with a comma, quote or line break is quoted, its quotes doubled; lines end in CRLF. */
export function csvLine(fields: ReadonlyArray<string>): string {
  return fields.map((f) => (/[",\r\n]/.test(f) ? `"${f.replace(/"/g, '""')}"` : f)).join(',') + '\r\n';
}

/** Minor units as a decimal in the currency's major unit: 12345 with scaling 100 is "123.45". */
export function decimal(minor: string | number | bigint, scaling: number): string {
  const value = BigInt(minor);
  const digits = Math.round(Math.log10(scaling));
  if (digits <= 0) return value.toString();
  const negative = value < 0n;
  const abs = (negative ? -value : value).toString().padStart(digits + 1, '0');
  return `${negative ? '-' : ''}${abs.slice(0, -digits)}.${abs.slice(-digits)}`;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
/** Per time zone, its offset from UTC (ms) in each minute asked for: `Intl` is asked once a minute, not once a row. */
const offsets = new Map<string, Map<number, number>>();
const MINUTE = 60_000;

/** `YYYY-MM-DD HH:MM:SS` in `timeZone` (an IANA name); empty for null. */
export function localTime(value: Date | string | null, timeZone: string): string {
  if (value === null) return '';
  const ms = Math.floor(new Date(value).getTime() / 1000) * 1000;
  const local = new Date(ms + offsetAt(ms, timeZone)).toISOString();
  return `${local.slice(0, 10)} ${local.slice(11, 19)}`;
}

/**
 * `timeZone`'s offset at `ms`, read from Intl once per minute and zone (offsets change only at
 * whole minutes in the tz database since 1970); the cache is emptied when it grows past a day of minutes.
 */
function offsetAt(ms: number, timeZone: string): number {
  let byMinute = offsets.get(timeZone);
  if (!byMinute) offsets.set(timeZone, (byMinute = new Map()));
  const minute = Math.floor(ms / MINUTE);
  const known = byMinute.get(minute);
  if (known !== undefined) return known;
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, format);
  }
  const start = minute * MINUTE;
  const p = Object.fromEntries(format.formatToParts(new Date(start)).map((x) => [x.type, Number(x.value)]));
  const offset = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - start;
  if (byMinute.size >= 1440) byMinute.clear();
  byMinute.set(minute, offset);
  return offset;
}

/** Whether `name` is a time zone this runtime knows. */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
