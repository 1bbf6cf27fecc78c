import { Column, Entity, PrimaryColumn } from 'typeorm';
import { ModeRecord } from '../../../../common/database/mode-record.js';

export type CreditGrantStatus = 'active' | 'voided' | 'expired';
export type CreditGrantCategory = 'paid' | 'promotional';

/**
 * A customer's prepaid credit in one currency. Its money is in the ledger's `customer_credit`
 * balance (`balance_id`); `remaining` is this grant's share of it, drawn by invoices and given back
 * to the funding account when the grant is voided or expires. `price_ids` empty: any price.
 */
@Entity({ name: 'credit_grants' })
export class CreditGrant extends ModeRecord {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') application_id: string;
  @Column('uuid') customer_id: string;
  /** The customer's test clock when granted: expiry follows that clock. */
  @Column('uuid', { nullable: true }) test_clock_id: string | null;
  @Column('text', { nullable: true }) name: string | null;
  @Column('text') category: CreditGrantCategory;
  @Column('text') currency: string;
  @Column('integer') scaling_factor: number;
  @Column('bigint') amount: string;
  @Column('bigint') remaining: string;
  @Column('jsonb') price_ids: string[];
  @Column('timestamptz') effective_at: Date;
  @Column('timestamptz', { nullable: true }) expires_at: Date | null;
  @Column('text') status: CreditGrantStatus;
  @Column('timestamptz', { nullable: true }) voided_at: Date | null;
  @Column('timestamptz', { nullable: true }) expired_at: Date | null;
  @Column('uuid') balance_id: string;
  @Column('jsonb') metadata: Record<string, unknown>;
  @Column('timestamptz') created_at: Date;
  @Column('timestamptz') updated_at: Date;
}
