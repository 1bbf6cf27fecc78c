import { Column, Entity, PrimaryColumn } from 'typeorm';
import { ModeRecord } from '../../../common/database/mode-record.js';

export type WebhookEndpointStatus = 'enabled' | 'disabled';

/**
 * Where an application's events are delivered. `secret` is kept as is (it must sign every
 * delivery) and shown only in the creation and rotation answers; never logged.
 */
@Entity({ name: 'webhook_endpoints' })
export class WebhookEndpoint extends ModeRecord {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') application_id: string;
  @Column('text') url: string;
  @Column('text', { nullable: true }) description: string | null;
  @Column('text', { array: true }) enabled_events: string[];
  @Column('text') status: WebhookEndpointStatus;
  @Column('text', { nullable: true }) disabled_reason: string | null;
  @Column('timestamptz', { nullable: true }) disabled_at: Date | null;
  @Column('text') secret: string;
  @Column('text', { nullable: true }) previous_secret: string | null;
  @Column('timestamptz', { nullable: true }) previous_secret_expires_at: Date | null;
  @Column('jsonb') metadata: Record<string, unknown>;
  @Column('timestamptz') created_at: Date;
  @Column('timestamptz') updated_at: Date;
}
