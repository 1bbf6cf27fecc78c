import { Column, Entity, PrimaryColumn } from 'typeorm';
import { ModeRecord } from '../../../../../common/database/mode-record.js';

export type CouponDuration = 'once' | 'repeating' | 'forever';

@Entity({ name: 'coupons' })
export class Coupon extends ModeRecord {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') application_id: string;
  @Column('text', { nullable: true }) name: string | null;
  /** numeric(5,2) as its exact decimal string ("12.50"), or null for an amount_off coupon. */
  @Column('numeric', { nullable: true }) percent_off: string | null;
  @Column('bigint', { nullable: true }) amount_off: number | null;
  @Column('text', { nullable: true }) currency: string | null;
  @Column('integer', { nullable: true }) scaling_factor: number | null;
  @Column('text') duration: CouponDuration;
  @Column('integer', { nullable: true }) duration_in_months: number | null;
  @Column('integer', { nullable: true }) max_redemptions: number | null;
  @Column('timestamptz', { nullable: true }) redeem_by: Date | null;
  /** Written only by the conditional increment of a redemption. */
  @Column('integer') times_redeemed: number;
  @Column('timestamptz', { nullable: true }) deleted_at: Date | null;
  @Column('jsonb') metadata: Record<string, unknown>;
  @Column('timestamptz') created_at: Date;
  @Column('timestamptz') updated_at: Date;
}
