import type { MigrationInterface, QueryRunner } from 'typeorm';
import { forEachModeSchema } from './support.js';

/**
 * Event retention (docs/EVENTS.md): the purge job deletes events older than EVENT_RETENTION_DAYS
 * (30 by default) across all applications, oldest first, in batches; this index finds them.
 * Their deliveries and attempts go with them (ON DELETE CASCADE, from the Events migration).
 */
export class EventRetention1763801900000 implements MigrationInterface {
  name = 'EventRetention1763801900000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) => [`CREATE INDEX events_created_idx ON ${s}.events (created_at, id)`]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) => [`DROP INDEX ${s}.events_created_idx`]);
  }
}
