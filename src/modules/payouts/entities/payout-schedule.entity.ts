import { Column, Entity, PrimaryColumn } from 'typeorm';
import { ModeRecord } from '../../../common/database/mode-record.js';

export const PAYOUT_INTERVALS = ['manual', 'daily', 'weekly'] as const;
export type PayoutInterval = (typeof PAYOUT_INTERVALS)[number];
export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;

/** An account's automatic payout schedule (one per account; no row = manual). */
@Entity({ name: 'payout_schedules' })
export class PayoutSchedule extends ModeRecord {
  @PrimaryColumn('uuid') account_id: string;
  @Column('uuid') application_id: string;
  @Column('text') schedule_interval: PayoutInterval;
  @Column('text', { nullable: true }) weekly_anchor: string | null;
  @Column('uuid', { nullable: true }) destination: string | null;
  @Column('text') currency: string;
  @Column('bigint') minimum_amount: number;
  @Column('timestamptz') created_at: Date;
  @Column('timestamptz') updated_at: Date;
}
