import type { MigrationInterface, QueryRunner } from 'typeorm';
import { forEachModeSchema } from './support.js';

/**
 * Card tokens of the test-mode vault (docs/COLLECTION.md, "Card tokenization"): what a charge
 * needs to know about a card, never the card number or its security code. Single use (`used_at`),
 * expiring (`expires_at`), bound to the checkout whose session made them. Live mode never writes
 * here (live cards are tokenized by the provider's own script); both schemas get the table so they
 * cannot differ.
 */
export class CardTokens1763802100000 implements MigrationInterface {
  name = 'CardTokens1763802100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) => [
      `CREATE TABLE ${s}.card_tokens (
         id uuid PRIMARY KEY,
         application_id uuid NOT NULL,
         checkout_id uuid NOT NULL,
         brand text NOT NULL,
         last4 text NOT NULL,
         exp_month integer NOT NULL,
         exp_year integer NOT NULL,
         fingerprint text NOT NULL,
         card_holder_name text,
         sandbox_outcome text NOT NULL,
         created_at timestamptz NOT NULL,
         expires_at timestamptz NOT NULL,
         used_at timestamptz)`,
      `CREATE INDEX card_tokens_expires_idx ON ${s}.card_tokens (expires_at)`,
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) => [`DROP TABLE ${s}.card_tokens`]);
  }
}
