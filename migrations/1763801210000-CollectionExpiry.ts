import type { MigrationInterface, QueryRunner } from 'typeorm';
import { forEachModeSchema } from './support.js';

/**
 * The expiry sweep (CheckoutExpiryService) looks across applications for open checkouts past their
 * expiry and pending charges past their QR code's: small partial indexes (only rows still waiting)
 * keep each claim a short index range however many finished rows pile up. Like the hold release
 * queue's, they are not led by application_id because the sweep is not per application.
 */
export class CollectionExpiry1763801210000 implements MigrationInterface {
  name = 'CollectionExpiry1763801210000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) => [
      `CREATE INDEX checkouts_open_expiry_idx ON ${s}.checkouts (expires_at) WHERE status = 'open'`,
      `CREATE INDEX checkouts_pending_charge_idx ON ${s}.checkouts (pending_charge_id) WHERE pending_charge_id IS NOT NULL`,
      `CREATE INDEX charges_pending_expiry_idx ON ${s}.charges (expires_at) WHERE status = 'pending'`,
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) => [
      `DROP INDEX ${s}.charges_pending_expiry_idx`,
      `DROP INDEX ${s}.checkouts_pending_charge_idx`,
      `DROP INDEX ${s}.checkouts_open_expiry_idx`,
    ]);
  }
}
