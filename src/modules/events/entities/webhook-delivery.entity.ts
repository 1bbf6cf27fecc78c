import { Column, Entity, PrimaryColumn } from 'typeorm';
import { ModeRecord } from '../../../common/database/mode-record.js';

export type WebhookDeliveryStatus = 'pending' | 'succeeded' | 'failed' | 'canceled';

/**
 * One event owed to one endpoint (keyed by the two, so the fan-out in the event's transaction needs
 * no ids): pending until an attempt succeeds, failed once retries span 3 days from
 * `retry_window_from` (set again by a resend), canceled when its endpoint is disabled.
 */
@Entity({ name: 'webhook_deliveries' })
export class WebhookDelivery extends ModeRecord {
  @PrimaryColumn('uuid') endpoint_id: string;
  @PrimaryColumn('uuid') event_id: string;
  @Column('uuid') application_id: string;
  @Column('text') event_type: string;
  @Column('text') status: WebhookDeliveryStatus;
  @Column('integer') attempts: number;
  @Column('timestamptz', { nullable: true }) next_attempt_at: Date | null;
  @Column('timestamptz') retry_window_from: Date;
  @Column('timestamptz', { nullable: true }) delivered_at: Date | null;
  @Column('timestamptz') created_at: Date;
  @Column('timestamptz') updated_at: Date;
  /** The event's `created_at`: the partition key, so a delivery sits in its event's month (migration EventPartitions). */
  @PrimaryColumn('timestamptz') event_created_at: Date;
}
