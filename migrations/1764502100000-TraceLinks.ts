import type { MigrationInterface, QueryRunner } from 'typeorm';
import { forEachModeSchema } from './support.js';

/**
 * What a later job or a provider's webhook continues keeps the W3C `traceparent` of the request that
 * started it (tracing on, docs/OBSERVABILITY.md "Traces"): a meter event's outbox row (the
 * forwarder's provider call links to it) and charges, refunds and payouts (the provider's webhook
 * about them links to it). Null with tracing off; never part of the API.
 */
export class TraceLinks1764502100000 implements MigrationInterface {
  name = 'TraceLinks1764502100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) =>
      ['meter_event_outbox', 'charges', 'refunds', 'payouts'].map(
        (table) => `ALTER TABLE ${s}.${table} ADD COLUMN traceparent text NULL`,
      ),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) =>
      ['meter_event_outbox', 'charges', 'refunds', 'payouts'].map(
        (table) => `ALTER TABLE ${s}.${table} DROP COLUMN traceparent`,
      ),
    );
  }
}
