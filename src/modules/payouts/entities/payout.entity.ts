import { Column, Entity, PrimaryColumn } from 'typeorm';
import { ModeRecord } from '../../../common/database/mode-record.js';
import type { PayoutStatus } from '../payouts/payout.transitions.js';

/** Money sent from an account's available balance to one of its bank accounts. */
@Entity({ name: 'payouts' })
export class Payout extends ModeRecord {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') application_id: string;
  @Column('uuid') account_id: string;
  @Column('uuid') destination: string;
  @Column('text') country: string;
  @Column('text') status: PayoutStatus;
  @Column('bigint') amount: number;
  @Column('text') currency: string;
  @Column('integer') scaling_factor: number;
  @Column('uuid') balance_id: string;
  @Column('text', { nullable: true }) description: string | null;
  @Column('text') method: string;
  @Column('boolean') automatic: boolean;
  @Column('text', { nullable: true }) schedule_period: string | null;
  @Column('text', { nullable: true }) provider: string | null;
  @Column('text', { nullable: true }) provider_reference: string | null;
  @Column('text', { nullable: true }) failure_code: string | null;
  @Column('text', { nullable: true }) failure_message: string | null;
  @Column('jsonb') metadata: Record<string, unknown>;
  @Column('timestamptz', { nullable: true }) arrival_date: Date | null;
  @Column('timestamptz', { nullable: true }) paid_at: Date | null;
  @Column('timestamptz', { nullable: true }) failed_at: Date | null;
  @Column('timestamptz', { nullable: true }) canceled_at: Date | null;
  @Column('timestamptz') created_at: Date;
  @Column('timestamptz') updated_at: Date;
  /** W3C traceparent of the request that created it (tracing on): the provider's webhook about it links to that trace. Never in the API. */
  @Column('text', { nullable: true }) traceparent?: string | null;
}
