import { Column, Entity, PrimaryColumn } from 'typeorm';
import { ModeRecord } from '../../../common/database/mode-record.js';

/** One movement of money: its entries (balance transactions) sum to zero per currency. */
@Entity({ name: 'journals' })
export class Journal extends ModeRecord {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') application_id: string;
  @Column('text', { nullable: true }) description: string | null;
  @Column('text') event_type: string;
  @Column('text', { nullable: true }) event_id: string | null;
  @Column('timestamptz') created_at: Date;
}
