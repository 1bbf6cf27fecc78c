import { Column, Entity, PrimaryColumn } from 'typeorm';
import { ModeRecord } from '../../../common/database/mode-record.js';

/** A dispute against a charge, in the application country it was opened in. */
@Entity({ name: 'disputes' })
export class Dispute extends ModeRecord {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') application_id: string;
  @Column('text') country: string;
  @Column('text') number: string;
  @Column('uuid') charge_id: string;
  @Column('text', { nullable: true }) payment_intent: string | null;
  @Column('text') currency: string;
  @Column('text') status: string;
  @Column('text') reason: string;
  @Column('text', { nullable: true }) network_reason_code: string | null;
  @Column('text', { nullable: true }) idempotency_key: string | null;
  @Column('text', { nullable: true }) provider: string | null;
  @Column('text', { nullable: true }) provider_id: string | null;
  @Column('text', { nullable: true }) reference_id: string | null;
  @Column('text', { nullable: true }) forex_quote_id: string | null;
  @Column('boolean') settled: boolean;
  @Column('boolean') reinstated: boolean;
  @Column('bigint') amount_from_merchant: number;
  @Column('bigint') amount_from_app: number;
  @Column('bigint') amount: number;
  @Column('integer') scaling_factor: number;
  @Column('jsonb') evidence: Record<string, unknown>;
  @Column('jsonb') metadata: Record<string, unknown>;
  @Column('jsonb') labels: string[];
  @Column('timestamptz', { nullable: true }) evidence_due_by: Date | null;
  @Column('timestamptz') opened_at: Date;
  @Column('timestamptz', { nullable: true }) closed_at: Date | null;
  /** The opened journal was booked (a chargeback's funds left the charge's balance). */
  @Column('boolean') funds_withdrawn: boolean;
  /** The provider's dispute fee booked so far (minor units; the sandbox's is booked by the lost journal). */
  @Column('bigint') fee_booked: number;
  @Column('integer') submission_count: number;
  @Column('boolean') has_evidence: boolean;
  /** Recovery point: an evidence submission reached for the provider and is not recorded yet. */
  @Column('timestamptz', { nullable: true }) submission_started_at: Date | null;
  /** Recovery point: the merchant's accept (POST /disputes/{id}/close) reached for the provider and is not recorded yet. */
  @Column('timestamptz', { nullable: true }) close_started_at: Date | null;
  @Column('timestamptz', { nullable: true }) provider_synced_at: Date | null;
  @Column('timestamptz') created_at: Date;
  @Column('timestamptz') updated_at: Date;
}
