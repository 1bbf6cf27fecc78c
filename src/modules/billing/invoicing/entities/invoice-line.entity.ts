import { Column, Entity, PrimaryColumn } from 'typeorm';
import { ModeRecord } from '../../../../common/database/mode-record.js';

/**
 * `subscription`: a licensed item, quantity x price, for the period it is billed ahead;
 * `proration`: a pending item of a mid-period change; `metered`: the usage of the period's meter
 * events; `metered_earlier`: usage from an earlier period whose invoice was already finalized
 * (late events), pointing at that period's line.
 */
export type InvoiceLineType = 'subscription' | 'proration' | 'metered' | 'metered_earlier';

export interface LineTaxAmount {
  tax_rate_id: string;
  inclusive: boolean;
  taxable_amount: number;
  amount: number;
}

/** One line of a subscription invoice (docs/BILLING.md, "The life of a period"). Amounts are signed minor units. */
@Entity({ name: 'invoice_lines' })
export class InvoiceLine extends ModeRecord {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') application_id: string;
  @Column('uuid') invoice_id: string;
  @Column('uuid', { nullable: true }) subscription_id: string | null;
  @Column('uuid') customer_id: string;
  @Column('text') type: InvoiceLineType;
  @Column('text') description: string;
  @Column('uuid', { nullable: true }) price_id: string | null;
  @Column('uuid', { nullable: true }) meter_id: string | null;
  /** Metered lines: the meter's formula when the line was made. */
  @Column('text', { nullable: true }) aggregation: string | null;
  /** `metered_earlier`: the line of the period the late events belong to. */
  @Column('uuid', { nullable: true }) earlier_line_id: string | null;
  @Column('bigint') quantity: string;
  @Column('bigint') amount: string;
  @Column('bigint') discount_amount: string;
  /** Prepaid credit this line took at finalization, after its discount and before tax. */
  @Column('bigint', { default: 0 }) credit_amount: string;
  @Column('jsonb') tax_amounts: LineTaxAmount[];
  @Column('timestamptz') period_start: Date;
  @Column('timestamptz') period_end: Date;
  @Column('integer', { nullable: true }) usage_event_count: number | null;
  @Column('numeric', { nullable: true }) usage_quantity: string | null;
  @Column('text', { nullable: true }) usage_digest: string | null;
  @Column('timestamptz') created_at: Date;
  @Column('timestamptz') updated_at: Date;
}
