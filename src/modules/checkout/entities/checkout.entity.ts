import { Column, Entity, PrimaryColumn } from 'typeorm';
import { ModeRecord } from '../../../common/database/mode-record.js';

export type CheckoutStatus = 'open' | 'complete' | 'expired';
export type TargetType = 'invoice' | 'payment_intent';
/** What a checkout names as its target: a collection target, or (mode `setup`) the customer whose card it saves. */
export type CheckoutTargetType = TargetType | 'customer';

/** A hosted checkout on one collection target; amount, currency and the rest are copied from it. */
@Entity({ name: 'checkouts' })
export class Checkout extends ModeRecord {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') application_id: string;
  @Column('text') country: string;
  @Column('text') status: CheckoutStatus;
  @Column('text') payment_status: 'unpaid' | 'paid' | 'no_payment_required';
  @Column('text') target_type: CheckoutTargetType;
  @Column('uuid') target_id: string;
  @Column('uuid', { nullable: true }) payment_link_id: string | null;
  @Column('bigint') amount: number;
  @Column('text') currency: string;
  @Column('integer') scaling_factor: number;
  @Column('uuid', { nullable: true }) customer_id: string | null;
  @Column('uuid', { nullable: true }) transfer_destination: string | null;
  @Column('bigint') application_fee_amount: number;
  @Column('jsonb') payment_method_types: string[];
  @Column('text', { nullable: true }) success_url: string | null;
  @Column('text', { nullable: true }) cancel_url: string | null;
  @Column('text') mode: string;
  @Column('jsonb') line_items: Array<{ price: string; quantity: number }>;
  @Column('boolean') allow_promotion_codes: boolean;
  @Column('text', { nullable: true }) payment_method_collection: string | null;
  @Column('jsonb', { nullable: true }) subscription_data: Record<string, unknown> | null;
  @Column('uuid') session_id: string;
  @Column('uuid', { nullable: true }) charge_id: string | null;
  @Column('uuid', { nullable: true }) pending_charge_id: string | null;
  /** Mode `setup`: the payment method the completed checkout saved. */
  @Column('uuid', { nullable: true }) setup_payment_method: string | null;
  /** Mode `subscription`: the subscription it opened and the first invoice it collects. */
  @Column('uuid', { nullable: true }) subscription_id: string | null;
  @Column('uuid', { nullable: true }) invoice_id: string | null;
  @Column('timestamptz') expires_at: Date;
  @Column('timestamptz', { nullable: true }) completed_at: Date | null;
  @Column('timestamptz', { nullable: true }) expired_at: Date | null;
  @Column('jsonb') metadata: Record<string, unknown>;
  @Column('timestamptz') created_at: Date;
  @Column('timestamptz') updated_at: Date;
}
