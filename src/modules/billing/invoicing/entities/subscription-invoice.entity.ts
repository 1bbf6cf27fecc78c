import { Column, Entity, PrimaryColumn } from 'typeorm';
import { ModeRecord } from '../../../../common/database/mode-record.js';

/** The discount and taxes a period's invoice was made with, kept so its finalization recomposes it alike. */
export interface InvoiceTerms {
  coupon: { id: string; percent_off: string | null; amount_off: number | null } | null;
  tax_rates: Array<{ id: string; display_name: string; percentage: string; inclusive: boolean }>;
  /** A trial's usage is free: its metered lines cost 0. */
  free_usage: boolean;
}

/**
 * Billing's record of an invoice it made for a subscription period: when its grace window ends
 * (`finalize_at`, by the customer's clock) and when it was finalized. Unique per
 * (subscription, period start, reason), like the invoice itself.
 */
@Entity({ name: 'subscription_invoices' })
export class SubscriptionInvoice extends ModeRecord {
  @PrimaryColumn('uuid') invoice_id: string;
  @Column('uuid') application_id: string;
  @Column('uuid') subscription_id: string;
  @Column('uuid') customer_id: string;
  @Column('uuid', { nullable: true }) test_clock_id: string | null;
  @Column('text') billing_reason: string;
  @Column('timestamptz') period_start: Date;
  @Column('timestamptz') period_end: Date;
  @Column('jsonb') terms: InvoiceTerms;
  @Column('timestamptz') finalize_at: Date;
  @Column('timestamptz', { nullable: true }) finalized_at: Date | null;
  @Column('timestamptz') created_at: Date;
}
