import type { AuditEntry } from './audit-recorder.js';
import type { RecordEvent } from '../events/event-recorder.js';

/** Objects whose whole state is configuration: their audit rows keep the object created (secrets removed). */
const CONFIGURATION_OBJECTS = new Set(['webhook_endpoint', 'product', 'price', 'coupon', 'promotion_code', 'tax_rate']);

/**
 * The audit row of an event recorded during a request: the action is the event type, the target
 * the object it carries; before/after are the event's `previous_attributes` and the same fields of
 * the object now, and a configuration object's creation keeps the object.
 */
export function auditOfEvent(event: RecordEvent): AuditEntry {
  const object = event.object as { object?: unknown; id?: unknown } & Record<string, unknown>;
  const type = typeof object.object === 'string' ? object.object : event.type.split('.').slice(0, -1).join('.');
  const entry: AuditEntry = {
    applicationId: event.applicationId,
    action: event.type,
    target: { type, id: typeof object.id === 'string' ? object.id : null },
  };
  if (event.previous_attributes) {
    const fields = Object.keys(event.previous_attributes);
    entry.before = event.previous_attributes;
    entry.after = Object.fromEntries(fields.map((f) => [f, object[f] ?? null]));
  } else if (CONFIGURATION_OBJECTS.has(type) && event.type.endsWith('.created')) {
    entry.after = object;
  }
  return entry;
}
