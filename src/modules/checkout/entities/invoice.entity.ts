import { Column, Entity, PrimaryColumn } from 'typeorm';
import { ModeRecord } from '../../../common/database/mode-record.js';

export type InvoiceStatus = 'draft' | 'open' | 'paid' | 'void';
export type InvoiceCollectionMethod = 'charge_automatically' | 'send_invoice';

export interface InvoiceLineItem {
  description: string;
  /** Unit amount in minor units; negative for a discount line. */
  amount: number;
  quantity: number;
}

/** An invoice to a customer: line items, a total, a due date; a collection target once open. */
@Entity({ name: 'invoices' })
export class Invoice extends ModeRecord {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') application_id: string;
  @Column('text') country: string;
  @Column('text') number: string;
  @Column('text') status: InvoiceStatus;
  @Column('uuid') customer_id: string;
  @Column('text') currency: string;
  @Column('integer') scaling_factor: number;
  @Column('jsonb') line_items: InvoiceLineItem[];
  @Column('bigint') subtotal: number;
  @Column('bigint') total: number;
  @Column('bigint') amount_paid: number;
  @Column('text', { nullable: true }) description: string | null;
  @Column('timestamptz', { nullable: true }) due_date: Date | null;
  @Column('jsonb') payment_method_types: string[];
  @Column('uuid', { nullable: true }) transfer_destination: string | null;
  @Column('bigint') application_fee_amount: number;
  @Column('uuid', { nullable: true }) charge_id: string | null;
  @Column('timestamptz', { nullable: true }) finalized_at: Date | null;
  @Column('timestamptz', { nullable: true }) paid_at: Date | null;
  @Column('timestamptz', { nullable: true }) voided_at: Date | null;
  /** The subscription it bills (null: a one-off invoice) and why (`subscription_create`). */
  @Column('uuid', { nullable: true }) subscription_id: string | null;
  @Column('text', { nullable: true }) billing_reason: string | null;
  /** The billing period a subscription invoice covers (its metered usage; licensed items are billed ahead). */
  @Column('timestamptz', { nullable: true }) period_start: Date | null;
  @Column('timestamptz', { nullable: true }) period_end: Date | null;
  /** How it is collected (null: a one-off invoice paid through checkouts); docs/BILLING.md, "Collection and retries". */
  @Column('text', { nullable: true }) collection_method: InvoiceCollectionMethod | null;
  /** Off-session attempts made (charge_automatically). */
  @Column('integer', { default: 0 }) attempt_count: number;
  /** When the next off-session attempt is due, by the customer's clock; null when none is scheduled. */
  @Column('timestamptz', { nullable: true }) next_payment_attempt: Date | null;
  /** The off-session attempt in flight (its charge); no second attempt starts while it may still be answered. */
  @Column('uuid', { nullable: true }) collection_charge_id: string | null;
  /** The subscription's test clock (copied as subscriptions copy their customer's): whose time the attempts follow. */
  @Column('uuid', { nullable: true }) test_clock_id: string | null;
  @Column('bigint', { default: 0 }) amount_refunded: number;
  /** Prepaid credit drawn at finalization (docs/BILLING.md, "Credit on the invoice"); the charge collects the rest. */
  @Column('bigint', { default: 0 }) credit_applied: number;
  @Column('text', { nullable: true }) hosted_invoice_url: string | null;
  @Column('jsonb') metadata: Record<string, unknown>;
  @Column('jsonb') labels: string[];
  @Column('timestamptz') created_at: Date;
  @Column('timestamptz') updated_at: Date;
}

/** What is left to collect of an invoice: its total less the prepaid credit it drew, never below 0 (0 once void). */
export function invoiceAmountDue(inv: Pick<Invoice, 'status' | 'total' | 'credit_applied'>): number {
  if (inv.status === 'void') return 0;
  return Math.max(0, Number(inv.total) - Number(inv.credit_applied ?? 0));
}
