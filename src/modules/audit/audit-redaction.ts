/** Field names that hold a secret or something derived from one: never written to the audit log. */
const SECRET_FIELD = /secret|password|token|hash|private|^key$|^client_secret$/i;

/**
 * A JSON copy of `value` without secret fields, at every depth. The copy is also what the chain
 * hashes: what jsonb stores (no undefined, dates as strings) is exactly what was hashed.
 */
export function withoutSecrets<T>(value: T): T {
  if (value === undefined || value === null) return value;
  return JSON.parse(
    JSON.stringify(value, (key, v: unknown) => (key !== '' && SECRET_FIELD.test(key) ? undefined : v)),
  ) as T;
}
