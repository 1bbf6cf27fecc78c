import type { MigrationInterface, QueryRunner } from 'typeorm';
import { forEachModeSchema } from './support.js';

/** Issue 16 item 3: payouts, per-account payout schedules, the sandbox transfer provider's transfers. */
export class PayoutsLifecycle1763801500000 implements MigrationInterface {
  name = 'PayoutsLifecycle1763801500000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) => [
      `CREATE TABLE ${s}.payouts (
        id uuid PRIMARY KEY,
        application_id uuid NOT NULL,
        account_id uuid NOT NULL REFERENCES ${s}.accounts (id),
        destination uuid NOT NULL REFERENCES ${s}.bank_accounts (id),
        country text NOT NULL,
        status text NOT NULL CHECK (status IN ('pending', 'in_transit', 'paid', 'failed', 'canceled')),
        amount bigint NOT NULL CHECK (amount > 0),
        currency text NOT NULL,
        scaling_factor integer NOT NULL,
        balance_id uuid NOT NULL,
        description text,
        method text NOT NULL DEFAULT 'standard',
        automatic boolean NOT NULL DEFAULT false,
        schedule_period text,
        provider text,
        provider_reference text,
        failure_code text,
        failure_message text,
        metadata jsonb NOT NULL DEFAULT '{}',
        arrival_date timestamptz,
        paid_at timestamptz,
        failed_at timestamptz,
        canceled_at timestamptz,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`,
      `CREATE INDEX payouts_app_created_idx ON ${s}.payouts (application_id, created_at DESC, id DESC)`,
      `CREATE INDEX payouts_in_transit_idx ON ${s}.payouts (status, updated_at) WHERE status IN ('pending', 'in_transit')`,
      // One automatic payout per account and schedule period, whichever replica's job gets there first.
      `CREATE UNIQUE INDEX payouts_schedule_period_key ON ${s}.payouts (account_id, schedule_period) WHERE schedule_period IS NOT NULL`,
      `CREATE TABLE ${s}.payout_schedules (
        account_id uuid PRIMARY KEY REFERENCES ${s}.accounts (id),
        application_id uuid NOT NULL,
        schedule_interval text NOT NULL CHECK (schedule_interval IN ('manual', 'daily', 'weekly')),
        weekly_anchor text,
        destination uuid REFERENCES ${s}.bank_accounts (id),
        currency text NOT NULL,
        minimum_amount bigint NOT NULL DEFAULT 0 CHECK (minimum_amount >= 0),
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`,
      `CREATE INDEX payout_schedules_interval_idx ON ${s}.payout_schedules (schedule_interval) WHERE schedule_interval <> 'manual'`,
      `CREATE TABLE ${s}.transfer_sandbox_transfers (
        reference text PRIMARY KEY,
        application_id uuid NOT NULL,
        payout_id uuid NOT NULL UNIQUE,
        recipient_reference text NOT NULL,
        amount bigint NOT NULL,
        currency text NOT NULL,
        status text NOT NULL,
        failure_code text,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`,
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) => [
      `DROP TABLE ${s}.transfer_sandbox_transfers`,
      `DROP TABLE ${s}.payout_schedules`,
      `DROP TABLE ${s}.payouts`,
    ]);
  }
}
