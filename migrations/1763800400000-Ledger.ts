import type { MigrationInterface, QueryRunner } from 'typeorm';
import { forEachModeSchema } from './support.js';

/**
 * Ledger (balances, journals, balance transactions, the hold-release queue), the charges and
 * payment methods the ledger's postings refer to, and disputes. Balance transactions are
 * immutable: a trigger refuses every UPDATE and DELETE, so a correction can only be a new entry.
 */
export class Ledger1763800400000 implements MigrationInterface {
  name = 'Ledger1763800400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) => [
      `CREATE TABLE ${s}.balances (
        id uuid PRIMARY KEY,
        application_id uuid NOT NULL,
        customer_id uuid,
        account text NOT NULL,
        currency text NOT NULL,
        name text,
        description text,
        available bigint NOT NULL DEFAULT 0,
        hold bigint NOT NULL DEFAULT 0,
        scaling_factor integer NOT NULL DEFAULT 100,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`,
      `CREATE UNIQUE INDEX balances_app_owner_key ON ${s}.balances
        (application_id, account, currency, (coalesce(customer_id, '00000000-0000-0000-0000-000000000000'::uuid)))`,
      `CREATE INDEX balances_app_created_idx ON ${s}.balances (application_id, created_at DESC, id DESC)`,
      `CREATE INDEX balances_app_customer_idx ON ${s}.balances (application_id, customer_id)`,

      `CREATE TABLE ${s}.journals (
        id uuid PRIMARY KEY,
        application_id uuid NOT NULL,
        description text,
        event_type text NOT NULL,
        event_id text,
        created_at timestamptz NOT NULL DEFAULT now()
      )`,
      `CREATE INDEX journals_app_event_idx ON ${s}.journals (application_id, event_type, event_id)`,

      `CREATE TABLE ${s}.balance_transactions (
        id uuid PRIMARY KEY,
        application_id uuid NOT NULL,
        journal_id uuid NOT NULL REFERENCES ${s}.journals (id),
        balance_id uuid NOT NULL REFERENCES ${s}.balances (id),
        customer_id uuid,
        account text NOT NULL,
        currency text NOT NULL,
        amount bigint NOT NULL,
        running_balance bigint NOT NULL,
        state text NOT NULL CHECK (state IN ('available', 'hold')),
        description text,
        original_currency text,
        original_amount bigint,
        exchange_rate numeric,
        event_type text NOT NULL,
        event_id text,
        parent_event_type text,
        parent_event_id text,
        transfer_id text,
        category text,
        forex_quote_id text,
        type text NOT NULL,
        source text NOT NULL,
        reporting_category text,
        plane text,
        scaling_factor integer NOT NULL,
        fee bigint NOT NULL DEFAULT 0,
        net bigint NOT NULL,
        gross_amount bigint NOT NULL,
        fee_details jsonb NOT NULL DEFAULT '[]',
        record_only boolean NOT NULL DEFAULT false,
        available_on timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`,
      `CREATE INDEX bt_app_created_idx ON ${s}.balance_transactions (application_id, created_at DESC, id DESC)`,
      `CREATE INDEX bt_app_amount_idx ON ${s}.balance_transactions (application_id, amount DESC, id DESC)`,
      `CREATE INDEX bt_app_balance_created_idx ON ${s}.balance_transactions (application_id, balance_id, created_at DESC, id DESC)`,
      `CREATE INDEX bt_app_customer_created_idx ON ${s}.balance_transactions (application_id, customer_id, created_at DESC, id DESC)`,
      `CREATE INDEX bt_app_journal_idx ON ${s}.balance_transactions (application_id, journal_id)`,
      // q: word-prefix search over the words of descriptions and references (see ListSpec.searchVector).
      `CREATE INDEX bt_search_idx ON ${s}.balance_transactions USING gin (to_tsvector('simple', regexp_replace(lower(
        coalesce(description, '') || ' ' || coalesce(event_id, '') || ' ' || coalesce(parent_event_id, '') || ' ' || coalesce(transfer_id, '')
      ), '[^[:alnum:]]+', ' ', 'g')))`,
      `CREATE FUNCTION ${s}.refuse_ledger_change() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          RAISE EXCEPTION 'balance transactions are immutable: post a correcting entry instead';
        END
      $$`,
      `CREATE TRIGGER balance_transactions_immutable BEFORE UPDATE OR DELETE ON ${s}.balance_transactions
        FOR EACH ROW EXECUTE FUNCTION ${s}.refuse_ledger_change()`,

      `CREATE TABLE ${s}.hold_releases (
        entry_id uuid PRIMARY KEY REFERENCES ${s}.balance_transactions (id),
        application_id uuid NOT NULL,
        available_on timestamptz NOT NULL
      )`,
      `CREATE INDEX hold_releases_due_idx ON ${s}.hold_releases (available_on)`,

      `CREATE TABLE ${s}.payment_methods (
        id uuid PRIMARY KEY,
        application_id uuid NOT NULL,
        customer_id uuid,
        type text NOT NULL,
        brand text,
        issuer text,
        last4 text,
        exp_month integer,
        exp_year integer,
        card_holder_name text,
        fingerprint text,
        allow_redisplay text NOT NULL DEFAULT 'unspecified',
        reference_id text,
        provider text,
        provider_connection_status text,
        needs_recollection boolean NOT NULL DEFAULT false,
        billing_details jsonb NOT NULL DEFAULT '{}',
        metadata jsonb NOT NULL DEFAULT '{}',
        labels jsonb NOT NULL DEFAULT '[]',
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`,
      `CREATE INDEX payment_methods_app_customer_idx ON ${s}.payment_methods (application_id, customer_id, created_at DESC)`,

      `CREATE TABLE ${s}.charges (
        id uuid PRIMARY KEY,
        application_id uuid NOT NULL,
        country text,
        status text NOT NULL,
        customer_id uuid,
        payment_method_id uuid,
        balance_id uuid,
        invoice_id uuid,
        payment_intent text,
        application text,
        application_fee text,
        transfer text,
        on_behalf_of text,
        transfer_group text,
        currency text NOT NULL,
        capture_method text NOT NULL DEFAULT 'automatic',
        settlement_status text,
        failure_reason text,
        failure_code text,
        failure_message text,
        reason_source text,
        dispute_id uuid,
        dispute_status text,
        dispute_reason text,
        provider text,
        plane text,
        reference_id text,
        amount bigint NOT NULL,
        application_fee_amount bigint NOT NULL DEFAULT 0,
        application_tax_amount bigint NOT NULL DEFAULT 0,
        net_amount bigint NOT NULL DEFAULT 0,
        amount_refunded bigint NOT NULL DEFAULT 0,
        amount_captured bigint NOT NULL DEFAULT 0,
        amount_capturable bigint NOT NULL DEFAULT 0,
        amount_voided bigint NOT NULL DEFAULT 0,
        scaling_factor integer NOT NULL DEFAULT 100,
        dispute_amount bigint NOT NULL DEFAULT 0,
        gateway_fee_amount bigint NOT NULL DEFAULT 0,
        credit_covered_fee_amount bigint NOT NULL DEFAULT 0,
        provider_fee_amount bigint NOT NULL DEFAULT 0,
        payable_amount bigint NOT NULL DEFAULT 0,
        paid boolean NOT NULL DEFAULT false,
        canceled boolean NOT NULL DEFAULT false,
        refunded boolean NOT NULL DEFAULT false,
        captured boolean NOT NULL DEFAULT false,
        disputed boolean NOT NULL DEFAULT false,
        expires_at timestamptz,
        canceled_at timestamptz,
        metadata jsonb NOT NULL DEFAULT '{}',
        labels jsonb NOT NULL DEFAULT '[]',
        transfer_data jsonb,
        next_action jsonb NOT NULL DEFAULT '[]',
        promptpay jsonb,
        installment jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`,
      `CREATE INDEX charges_app_created_idx ON ${s}.charges (application_id, created_at DESC, id DESC)`,
      `CREATE INDEX charges_app_customer_idx ON ${s}.charges (application_id, customer_id, created_at DESC)`,
      `CREATE INDEX charges_app_intent_idx ON ${s}.charges (application_id, payment_intent)`,

      `CREATE TABLE ${s}.disputes (
        id uuid PRIMARY KEY,
        application_id uuid NOT NULL,
        country text NOT NULL,
        number text NOT NULL,
        charge_id uuid NOT NULL REFERENCES ${s}.charges (id),
        payment_intent text,
        currency text NOT NULL,
        status text NOT NULL,
        reason text NOT NULL,
        network_reason_code text,
        idempotency_key text,
        provider text,
        provider_id text,
        reference_id text,
        forex_quote_id text,
        settled boolean NOT NULL DEFAULT false,
        reinstated boolean NOT NULL DEFAULT false,
        amount_from_merchant bigint NOT NULL DEFAULT 0,
        amount_from_app bigint NOT NULL DEFAULT 0,
        amount bigint NOT NULL,
        scaling_factor integer NOT NULL DEFAULT 100,
        evidence jsonb NOT NULL DEFAULT '{}',
        metadata jsonb NOT NULL DEFAULT '{}',
        labels jsonb NOT NULL DEFAULT '[]',
        evidence_due_by timestamptz,
        opened_at timestamptz NOT NULL,
        closed_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`,
      `CREATE INDEX disputes_app_country_created_idx ON ${s}.disputes (application_id, country, created_at DESC, id DESC)`,
      `CREATE INDEX disputes_app_country_amount_idx ON ${s}.disputes (application_id, country, amount DESC, id DESC)`,
      `CREATE INDEX disputes_app_charge_idx ON ${s}.disputes (application_id, charge_id)`,
      `CREATE INDEX disputes_app_status_idx ON ${s}.disputes (application_id, country, status, created_at DESC)`,
      `CREATE INDEX disputes_search_idx ON ${s}.disputes USING gin (to_tsvector('simple', regexp_replace(lower(
        coalesce(number, '') || ' ' || coalesce(reference_id, '') || ' ' || coalesce(provider_id, '') || ' ' || coalesce(reason, '')
      ), '[^[:alnum:]]+', ' ', 'g')))`,
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await forEachModeSchema(queryRunner, (s) => [
      `DROP TABLE ${s}.disputes`,
      `DROP TABLE ${s}.charges`,
      `DROP TABLE ${s}.payment_methods`,
      `DROP TABLE ${s}.hold_releases`,
      `DROP TABLE ${s}.balance_transactions`,
      `DROP FUNCTION ${s}.refuse_ledger_change()`,
      `DROP TABLE ${s}.journals`,
      `DROP TABLE ${s}.balances`,
    ]);
  }
}
