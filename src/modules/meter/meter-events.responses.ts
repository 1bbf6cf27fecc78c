import type { MeterEventRow } from './meter-events.repository.js';

/** A stored meter event as `GET /meter_events/{id}` answers it (and as its events carry it). */
export function toMeterEventResponse(row: MeterEventRow, livemode: boolean) {
  return {
    id: row.id,
    object: 'meter_event' as const,
    livemode,
    event_name: row.event_name,
    customer_id: row.customer_id,
    identifier: row.identifier,
    payload: row.payload,
    timestamp: new Date(row.occurred_at).toISOString(),
    delivery_status: row.delivery_status,
    delivered_at: row.delivered_at ? new Date(row.delivered_at).toISOString() : null,
    errors: row.errors,
    created_at: new Date(row.created_at).toISOString(),
  };
}
