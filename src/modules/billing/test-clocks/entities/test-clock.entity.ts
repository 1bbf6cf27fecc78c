import { Column, Entity, PrimaryColumn } from 'typeorm';
import { ModeRecord } from '../../../../common/database/mode-record.js';

export type TestClockStatus = 'ready' | 'advancing';

/** A test mode clock that customers created on it live by (docs/BILLING.md, "Test clocks"). */
@Entity({ name: 'test_clocks' })
export class TestClock extends ModeRecord {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') application_id: string;
  @Column('text', { nullable: true }) name: string | null;
  /** The time its customers live at; while advancing, the time the job has reached is per step. */
  @Column('timestamptz') frozen_time: Date;
  /** While advancing: where the clock is going. */
  @Column('timestamptz', { nullable: true }) target_frozen_time: Date | null;
  @Column('text') status: TestClockStatus;
  @Column('timestamptz') created_at: Date;
  @Column('timestamptz') updated_at: Date;
}
