/**
 * Stripe's metadata update: the keys sent replace those stored, a key sent as "" or null is removed,
 * keys not sent stay. Pure, shared by every catalog resource's update.
 */
export function mergeMetadata(
  current: Record<string, unknown>,
  patch: Record<string, unknown> | undefined,
): Record<string, unknown> {
  if (patch === undefined) return current;
  const merged: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    if (value === '' || value === null) delete merged[key];
    else merged[key] = value;
  }
  return merged;
}

/** The fields of `after` whose values differ from `before`, with `before`'s values: an event's previous_attributes. */
export function previousAttributes<T extends object>(
  before: T,
  after: T,
  fields: Array<keyof T>,
): Record<string, unknown> {
  const previous: Record<string, unknown> = {};
  for (const field of fields) {
    if (JSON.stringify(before[field]) !== JSON.stringify(after[field])) previous[field as string] = before[field];
  }
  return previous;
}
