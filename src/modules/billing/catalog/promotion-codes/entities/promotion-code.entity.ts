import { Column, Entity, PrimaryColumn } from 'typeorm';
import { ModeRecord } from '../../../../../common/database/mode-record.js';

@Entity({ name: 'promotion_codes' })
export class PromotionCode extends ModeRecord {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') application_id: string;
  /** As the creator wrote it; unique per application and mode case-insensitively (an index on lower(code)). */
  @Column('text') code: string;
  @Column('uuid') coupon_id: string;
  @Column('boolean') active: boolean;
  @Column('integer', { nullable: true }) max_redemptions: number | null;
  @Column('timestamptz', { nullable: true }) expires_at: Date | null;
  /** Written only by the conditional increment of a redemption. */
  @Column('integer') times_redeemed: number;
  @Column('boolean') first_time_transaction: boolean;
  @Column('bigint', { nullable: true }) minimum_amount: number | null;
  @Column('text', { nullable: true }) minimum_amount_currency: string | null;
  @Column('jsonb') metadata: Record<string, unknown>;
  @Column('timestamptz') created_at: Date;
  @Column('timestamptz') updated_at: Date;
}
