import { Column, Entity, PrimaryColumn } from 'typeorm';
import { ModeRecord } from '../../../../common/database/mode-record.js';

/** One `invoice.upcoming` per subscription period (its key): a replica or a rerun never sends two. */
@Entity({ name: 'invoice_upcoming_notices' })
export class UpcomingNotice extends ModeRecord {
  @PrimaryColumn('uuid') subscription_id: string;
  @PrimaryColumn('timestamptz') period_end: Date;
  @Column('uuid') application_id: string;
  @Column('timestamptz') created_at: Date;
}
