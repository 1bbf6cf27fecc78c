/**
 * A meter event's `timestamp`: the contract's `YYYY-MM-DD HH:MM:SS` (UTC), or RFC 3339 as event
 * summaries and most clients write it (`2026-11-28T12:30:00Z`, `…T19:30:00+07:00`, with or without
 * fractional seconds). Meter events are kept to the second, as the default (now) is: a fraction is
 * dropped. Pure: answers the instant, or why the text is not one.
 */
const CONTRACT = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

export type ParsedTimestamp = { date: Date } | { problem: 'shape' | 'not_real' };

export function parseMeterTimestamp(raw: string): ParsedTimestamp {
  const m = CONTRACT.exec(raw) ?? RFC3339.exec(raw);
  if (!m) return { problem: 'shape' };
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map(Number);
  const local = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
  if (
    local.getUTCFullYear() !== y ||
    local.getUTCMonth() !== mo - 1 ||
    local.getUTCDate() !== d ||
    h > 23 ||
    mi > 59 ||
    s > 59
  ) {
    return { problem: 'not_real' };
  }
  const [zulu, sign, oh, om] = m.slice(7, 11);
  if (zulu || sign === undefined) return { date: local };
  const offsetHours = Number(oh);
  const offsetMinutes = Number(om);
  if (offsetHours > 23 || offsetMinutes > 59) return { problem: 'not_real' };
  const offsetMs = (offsetHours * 60 + offsetMinutes) * 60_000 * (sign === '+' ? 1 : -1);
  return { date: new Date(local.getTime() - offsetMs) };
}
