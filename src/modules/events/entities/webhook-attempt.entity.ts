import { Column, Entity, PrimaryColumn } from 'typeorm';
import { ModeRecord } from '../../../common/database/mode-record.js';

/**
 * One HTTP attempt of a delivery: written `sending` before the request leaves, completed with what
 * the receiver answered.
 */
@Entity({ name: 'webhook_attempts' })
export class WebhookAttempt extends ModeRecord {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') application_id: string;
  @Column('uuid') endpoint_id: string;
  @Column('uuid') event_id: string;
  @Column('text') event_type: string;
  @Column('integer') attempt: number;
  @Column('text') outcome: 'sending' | 'succeeded' | 'failed';
  @Column('integer', { nullable: true }) status_code: number | null;
  @Column('integer') duration_ms: number;
  @Column('text', { nullable: true }) response_excerpt: string | null;
  @Column('text', { nullable: true }) error: string | null;
  @Column('timestamptz', { nullable: true }) next_retry_at: Date | null;
  @Column('timestamptz') created_at: Date;
  /** The event's `created_at`: the partition key, so an attempt sits in its event's month (migration EventPartitions). */
  @Column('timestamptz') event_created_at: Date;
}
