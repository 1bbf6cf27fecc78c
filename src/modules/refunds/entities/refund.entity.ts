import { Column, Entity, PrimaryColumn } from 'typeorm';
import { ModeRecord } from '../../../common/database/mode-record.js';
import type { RefundStatus } from '../refund.transitions.js';

export interface RefundDebitPart {
  balance_id: string;
  amount: number;
  available: number;
  hold: number;
}

/** A refund of (part of) a charge. Its status is written only by RefundsRepository.writeStatus. */
@Entity({ name: 'refunds' })
export class Refund extends ModeRecord {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') application_id: string;
  @Column('text', { nullable: true }) country: string | null;
  @Column('uuid') charge_id: string;
  @Column('text', { nullable: true }) payment_intent: string | null;
  @Column('text') status: RefundStatus;
  @Column('bigint') amount: number;
  @Column('text') currency: string;
  @Column('integer') scaling_factor: number;
  @Column('text', { nullable: true }) reason: string | null;
  /** The charge's payment method type: `card` or `promptpay`. */
  @Column('text') method: string;
  @Column('text', { nullable: true }) provider: string | null;
  /** The provider's reference of the refund, once it answered. */
  @Column('text', { nullable: true }) reference_id: string | null;
  /** The balance debited (the charge's merchant-side balance). */
  @Column('uuid', { nullable: true }) balance_id: string | null;
  /** How the debit was split between the balance's available and hold states. */
  @Column('bigint') amount_from_available: number;
  @Column('bigint') amount_from_hold: number;
  /** Every balance the refund debited, with its split (destination charges debit two). */
  @Column('jsonb') debits: RefundDebitPart[];
  @Column('boolean') reverse_transfer: boolean;
  @Column('boolean') refund_application_fee: boolean;
  /** Destination charges: what was taken back from the connected account. */
  @Column('bigint') transfer_reversal_amount: number;
  @Column('text', { nullable: true }) failure_code: string | null;
  @Column('text', { nullable: true }) failure_reason: string | null;
  @Column('text', { nullable: true }) failure_message: string | null;
  @Column('jsonb') metadata: Record<string, unknown>;
  @Column('timestamptz') created_at: Date;
  @Column('timestamptz') updated_at: Date;
  /** W3C traceparent of the request that created it (tracing on): the provider's webhook about it links to that trace. Never in the API. */
  @Column('text', { nullable: true }) traceparent?: string | null;
}
