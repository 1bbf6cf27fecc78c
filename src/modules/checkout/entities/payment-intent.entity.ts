import { Column, Entity, PrimaryColumn } from 'typeorm';
import { ModeRecord } from '../../../common/database/mode-record.js';

export type PaymentIntentStatus =
  'requires_payment_method' | 'requires_action' | 'processing' | 'requires_capture' | 'succeeded' | 'canceled';

/** `automatic`: a card is charged at once; `manual`: it is authorized, and captured later (cards only). */
export type CaptureMethod = 'automatic' | 'manual';

export interface PaymentError {
  code: string;
  message: string;
  charge: string;
  /** The issuer's finer reason of a card decline (e.g. `insufficient_funds`), when there is one. */
  decline_code?: string | null;
}

/** What the customer does next for an intent in `requires_action`: open the page that completes 3-D Secure. */
export interface IntentNextAction {
  type: 'redirect_to_url';
  redirect_to_url: { url: string; return_url: string | null };
}

/** A payment intent: an amount to collect from a customer, a collection target. */
@Entity({ name: 'payment_intents' })
export class PaymentIntent extends ModeRecord {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') application_id: string;
  @Column('text') country: string;
  @Column('text') status: PaymentIntentStatus;
  @Column('bigint') amount: number;
  @Column('bigint') amount_received: number;
  @Column('text', { default: 'automatic' }) capture_method: CaptureMethod;
  /** What an authorization holds at the provider and may still be captured (manual capture). */
  @Column('bigint', { default: 0 }) amount_capturable: number;
  @Column('text') currency: string;
  @Column('integer') scaling_factor: number;
  @Column('uuid', { nullable: true }) customer_id: string | null;
  @Column('text', { nullable: true }) description: string | null;
  @Column('jsonb') payment_method_types: string[];
  @Column('uuid', { nullable: true }) transfer_destination: string | null;
  @Column('bigint') application_fee_amount: number;
  @Column('uuid', { nullable: true }) latest_charge: string | null;
  @Column('jsonb', { nullable: true }) last_payment_error: PaymentError | null;
  @Column('jsonb', { nullable: true }) next_action: IntentNextAction | null;
  /** The saved payment method the intent is (being) paid with, off-session. */
  @Column('uuid', { nullable: true }) payment_method: string | null;
  @Column('text', { nullable: true }) cancellation_reason: string | null;
  @Column('timestamptz', { nullable: true }) canceled_at: Date | null;
  @Column('timestamptz', { nullable: true }) succeeded_at: Date | null;
  @Column('jsonb') metadata: Record<string, unknown>;
  @Column('jsonb') labels: string[];
  @Column('timestamptz') created_at: Date;
  @Column('timestamptz') updated_at: Date;
}
