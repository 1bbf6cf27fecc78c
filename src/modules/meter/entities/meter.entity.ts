import { Column, Entity, PrimaryColumn } from 'typeorm';
import { ModeRecord } from '../../../common/database/mode-record.js';

export type MeterAggregation = 'sum' | 'count' | 'last' | 'max';

@Entity({ name: 'meters' })
export class Meter extends ModeRecord {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') application_id: string;
  @Column('text') display_name: string;
  @Column('text') event_name: string;
  @Column('text') event_payload_key: string;
  @Column('text') aggregation: MeterAggregation;
  @Column('text') status: 'active' | 'inactive';
  /** Events are refused (E8030) when their rated cost would pass the customer's remaining prepaid credit. */
  @Column('boolean') enforce_credit: boolean;
  @Column('timestamptz') created_at: Date;
  @Column('timestamptz') updated_at: Date;
}
