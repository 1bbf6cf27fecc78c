import type { SubscriptionResponse } from './subscriptions.responses.js';

/** Stripe's metadata update: keys merge; a key sent as "" or null is removed. */
export function mergeMetadata(
  current: Record<string, unknown>,
  update: Record<string, unknown>,
): Record<string, unknown> {
  const merged = new Map(Object.entries(current));
  for (const [key, value] of Object.entries(update)) {
    if (value === '' || value === null) merged.delete(key);
    else merged.set(key, value);
  }
  // fromEntries: a key named like an Object.prototype member stays a plain key.
  return Object.fromEntries(merged);
}

/** The top-level fields of `before` that differ in `after` (the event's previous_attributes). */
export function changedAttributes(before: SubscriptionResponse, after: SubscriptionResponse): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(before) as Array<keyof SubscriptionResponse>) {
    if (key === 'updated_at') continue;
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) out[key] = before[key];
  }
  return out;
}
