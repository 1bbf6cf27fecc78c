import type { MigrationInterface, QueryRunner } from 'typeorm';
import { forEachModeSchema } from './support.js';

/**
 * Stripe Connect (issue 15 part B, docs/PROVIDERS.md "Stripe Connect accounts"): a connected
 * account remembers the provider account made for it (`provider`, `provider_account_id`, e.g.
 * `stripe` / `acct_…`; an identifier, not a secret). The index finds the account a provider's
 * `account.updated` notice names. A connected account's bank account may now have a provider
 * recipient (Stripe external account on its Connect account, Opn recipient): the Payouts
 * migration's `CHECK (account_kind = 'own' OR provider_status = 'not_applicable')` becomes "a
 * connected account's bank account is never `disabled`".
 */
export class ConnectAccounts1763803200000 implements MigrationInterface {
  name = 'ConnectAccounts1763803200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) => [
      `ALTER TABLE ${s}.accounts ADD COLUMN provider text, ADD COLUMN provider_account_id text`,
      `CREATE UNIQUE INDEX accounts_provider_account_idx ON ${s}.accounts (provider, provider_account_id) WHERE provider_account_id IS NOT NULL`,
      `ALTER TABLE ${s}.bank_accounts DROP CONSTRAINT bank_accounts_check`,
      `ALTER TABLE ${s}.bank_accounts ADD CONSTRAINT bank_accounts_connected_provider_check
         CHECK (account_kind = 'own' OR provider_status IN ('not_applicable', 'created', 'failed'))`,
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) => [
      `ALTER TABLE ${s}.bank_accounts DROP CONSTRAINT bank_accounts_connected_provider_check`,
      `ALTER TABLE ${s}.bank_accounts ADD CONSTRAINT bank_accounts_check
         CHECK (account_kind = 'own' OR provider_status = 'not_applicable')`,
      `DROP INDEX ${s}.accounts_provider_account_idx`,
      `ALTER TABLE ${s}.accounts DROP COLUMN provider_account_id, DROP COLUMN provider`,
    ]);
  }
}
