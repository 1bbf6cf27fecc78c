import type { Meter } from './entities/meter.entity.js';
import type { MeterEventRow, StoredEventRow } from './meter-events.repository.js';

export function toMeterResponse(m: Meter) {
  return {
    id: m.id,
    object: 'billing.meter' as const,
    livemode: m.livemode,
    display_name: m.display_name,
    event_name: m.event_name,
    status: m.status,
    value_settings: { event_payload_key: m.event_payload_key },
    default_aggregation: { formula: m.aggregation },
    enforce_credit: m.enforce_credit,
    customer_mapping: { event_payload_key: 'customer', type: 'by_id' },
    created_at: m.created_at.toISOString(),
    updated_at: m.updated_at.toISOString(),
  };
}

export type MeterResponse = ReturnType<typeof toMeterResponse>;

export interface CreationResponse {
  id: string;
  object: 'meter_event';
  resource: string;
  created_at: string;
  errors: Array<{ code: string; message: string }>;
  next_action: never[];
}

/** What creating a meter event answers (also for a repeated identifier: the stored original). */
export function toCreationResponse(row: StoredEventRow): CreationResponse {
  return {
    id: row.id,
    object: 'meter_event',
    resource: `meter_events/${row.id}`,
    created_at: new Date(row.created_at).toISOString(),
    errors: row.errors ?? [],
    next_action: [],
  };
}

/** A stored meter event with its delivery status; the row has no livemode column (the schema is the mode). */
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
