import { defineErrors } from '../../common/errors/error-catalog.js';

export const MeterErrors = defineErrors('meter', {
  E8001: { key: 'meter_not_found', http_status: 400, message: 'No meter of this application has this event_name.' },
  E8002: { key: 'meter_inactive', http_status: 400, message: 'The meter for this event_name is inactive.' },
  E8003: { key: 'payload_key_missing', http_status: 400, message: "payload must carry the meter's event_payload_key." },
  E8004: {
    key: 'payload_key_unexpected',
    http_status: 400,
    message: "payload may carry only the meter's event_payload_key.",
  },
  E8005: {
    key: 'payload_value_not_numeric',
    http_status: 400,
    message: 'The metric value must be a string holding a number.',
  },
  E8006: {
    key: 'invalid_timestamp',
    http_status: 400,
    message: 'timestamp must be UTC in the shape YYYY-MM-DD HH:MM:SS, or RFC 3339 (2026-11-28T12:30:00Z).',
  },
  E8007: {
    key: 'timestamp_out_of_range',
    http_status: 400,
    message: 'timestamp must be at most 35 days in the past and 5 minutes in the future.',
  },
  E8008: {
    key: 'customer_not_found',
    http_status: 400,
    message: 'No customer of this application has this customer_id.',
  },
  E8009: {
    key: 'customer_without_provider_reference',
    http_status: 400,
    message: 'The customer has no billing provider reference yet.',
  },
  E8010: {
    key: 'meter_event_name_taken',
    http_status: 409,
    message: 'Another meter of this application already uses this event_name.',
  },
  E8011: { key: 'batch_too_large', http_status: 400, message: 'A batch holds 1 to 100 events.' },
  E8020: {
    key: 'meter_event_forwarding_failed',
    http_status: 502,
    message: 'The billing provider did not accept the event yet; it is retried.',
  },
  E8021: {
    key: 'meter_event_forwarding_abandoned',
    http_status: 502,
    message: 'The billing provider refused the event for good or too many times; it will not be retried.',
    severity: 'error',
  },
  E8030: {
    key: 'insufficient_credit',
    http_status: 402,
    message: "The event's rated cost would take the customer's unbilled usage past its remaining prepaid credit.",
  },
  E8031: {
    key: 'enforced_meter_without_price',
    http_status: 402,
    message:
      'The meter enforces prepaid credit, and the customer has no live subscription with a price on it to rate the event.',
  },
});
