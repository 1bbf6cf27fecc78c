import type { MigrationInterface, QueryRunner } from 'typeorm';
import { forEachModeSchema } from './support.js';

/**
 * Webhook deliveries are claimed per endpoint (docs/EVENTS.md "How delivery runs"): this index
 * lists the endpoints owed anything with one probe each (a skip scan) and gives each one's due
 * deliveries in order, so one endpoint's backlog is never read to find another's.
 */
export class WebhookEndpointClaims1763803450000 implements MigrationInterface {
  name = 'WebhookEndpointClaims1763803450000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) => [
      `CREATE INDEX webhook_deliveries_endpoint_due_idx ON ${s}.webhook_deliveries (endpoint_id, next_attempt_at, event_id)
         WHERE status = 'pending'`,
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) => [`DROP INDEX ${s}.webhook_deliveries_endpoint_due_idx`]);
  }
}
