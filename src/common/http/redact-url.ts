import { maskCardNumbers } from './card-data.js';

/**
 * Query parameters (or list filters on fields) that carry credentials or protected personal
 * data: OAuth codes and tokens, PKCE verifiers, client secrets, passwords, one-time sessions,
 * keys, full account numbers, phone numbers and national IDs. Their values are masked in logged URLs; others
 * (`state`, list filters, ids) are kept.
 */
const SECRET_PARAMS = new Set([
  'code',
  'code_verifier',
  'access_token',
  'refresh_token',
  'id_token',
  'token',
  'client_secret',
  'password',
  'session',
  'session_token',
  'key',
  'secret',
  'api_key',
  'account_number',
  'phone_number',
  'primary_identify_id',
]);

/** A parameter's field: `filter[account_number][in]` names `account_number`. */
const fieldOf = (name: string) => /^filter\[([^\]]*)\]/.exec(name)?.[1] ?? name;

/** `url` (a path with a query, or an absolute URL) with the values of credential parameters replaced by `[redacted]`. */
export function redactUrl(raw: string): string {
  // A card number anywhere in the URL (a path segment, a query value, encoded spaces) is masked too.
  const spaced = raw.length >= 13 ? decodeSpaces(raw) : raw;
  const masked = maskCardNumbers(spaced);
  const url = masked === spaced ? raw : masked;
  const query = url.indexOf('?');
  if (query === -1) return url;
  const hash = url.indexOf('#', query);
  const end = hash === -1 ? url.length : hash;
  const params = url
    .slice(query + 1, end)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq === -1) return pair;
      let name: string;
      try {
        name = decodeURIComponent(pair.slice(0, eq).replace(/\+/g, ' '));
      } catch {
        name = pair.slice(0, eq);
      }
      return SECRET_PARAMS.has(fieldOf(name.toLowerCase())) ? `${pair.slice(0, eq)}=[redacted]` : pair;
    });
  return `${url.slice(0, query)}?${params.join('&')}${url.slice(end)}`;
}

/** `%20` and `+` as spaces, so a card number typed in groups is seen whole by the mask. */
function decodeSpaces(url: string): string {
  return url.replace(/%20|\+/g, (m, offset: number) => (/\d/.test(url[offset - 1] ?? '') ? ' ' : m));
}
