import { Column, Entity, PrimaryColumn } from 'typeorm';
import { ModeRecord } from '../../../common/database/mode-record.js';

/** A saved payment method's state; null on the one-off method of a charge attempt. */
export type SavedStatus = 'attached' | 'detached';

@Entity({ name: 'payment_methods' })
export class PaymentMethod extends ModeRecord {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') application_id: string;
  @Column('uuid', { nullable: true }) customer_id: string | null;
  @Column('text') type: string;
  @Column('text', { nullable: true }) brand: string | null;
  @Column('text', { nullable: true }) issuer: string | null;
  @Column('text', { nullable: true }) last4: string | null;
  @Column('integer', { nullable: true }) exp_month: number | null;
  @Column('integer', { nullable: true }) exp_year: number | null;
  @Column('text', { nullable: true }) card_holder_name: string | null;
  @Column('text', { nullable: true }) fingerprint: string | null;
  @Column('text', { default: 'unspecified' }) allow_redisplay: string;
  @Column('text', { nullable: true }) reference_id: string | null;
  @Column('text', { nullable: true }) provider: string | null;
  @Column('text', { nullable: true }) provider_connection_status: string | null;
  @Column('boolean', { default: false }) needs_recollection: boolean;
  @Column('jsonb', { default: {} }) billing_details: Record<string, unknown>;
  @Column('jsonb', { default: {} }) metadata: Record<string, unknown>;
  @Column('jsonb', { default: [] }) labels: string[];
  /** `attached` | `detached` for a saved method (docs/COLLECTION.md, "Saved payment methods"); null otherwise. */
  @Column('text', { nullable: true }) status: SavedStatus | null;
  @Column('text', { nullable: true }) funding: string | null;
  /** The provider's customer the card is saved to (Opn `cust_…`, Stripe `cus_…`); `reference_id` is the card there. */
  @Column('text', { nullable: true }) provider_customer: string | null;
  /** Test mode: the outcome the saved test card's number selected (the number itself is never kept). */
  @Column('text', { nullable: true }) sandbox_outcome: string | null;
  @Column('timestamptz', { nullable: true }) detached_at: Date | null;
  @Column('timestamptz', { default: () => 'now()' }) created_at: Date;
  @Column('timestamptz', { default: () => 'now()' }) updated_at: Date;
}
