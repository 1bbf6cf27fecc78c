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

/** `YYYY-MM-DD HH:MM:SS` in `timeZone` (an IANA name); empty for null. */
export function localTime(value: Date | string | null, timeZone: string): string {
  if (value === null) return '';
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
  const parts = Object.fromEntries(format.formatToParts(new Date(value)).map((p) => [p.type, p.value]));
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
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
