import type { MigrationInterface, QueryRunner } from 'typeorm';
import { forEachModeSchema } from './support.js';

/**
 * An event keeps the W3C `traceparent` of the span that recorded it (docs/OBSERVABILITY.md,
 * "Traces"), so its webhook deliveries, run later by a job, link back to the request's trace. Null
 * with tracing off; never part of the API's event object.
 */
export class EventTraceparent1764501700000 implements MigrationInterface {
  name = 'EventTraceparent1764501700000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) => [`ALTER TABLE ${s}.events ADD COLUMN traceparent text NULL`]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) => [`ALTER TABLE ${s}.events DROP COLUMN traceparent`]);
  }
}
