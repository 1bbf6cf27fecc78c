import { Column, Entity, PrimaryColumn } from 'typeorm';
import { ModeRecord } from '../../../common/database/mode-record.js';
import type { EventRequest } from '../../../common/events/event-recorder.js';

/** Something that happened, written in the transaction of the change it describes. */
@Entity({ name: 'events' })
export class Event extends ModeRecord {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') application_id: string;
  @Column('text') type: string;
  @Column('text') api_version: string;
  @Column('jsonb') data: { object: Record<string, unknown>; previous_attributes?: Record<string, unknown> };
  @Column('jsonb', { nullable: true }) request: EventRequest | null;
  @Column('timestamptz') created_at: Date;
  /** W3C traceparent of the span that recorded it (tracing on), for its deliveries' span links; never in the API. */
  @Column('text', { nullable: true }) traceparent: string | null;
}
