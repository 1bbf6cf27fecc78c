import { Column, Entity, PrimaryColumn } from 'typeorm';
import { ModeRecord } from '../../../../../common/database/mode-record.js';

export type BillingScheme = 'per_unit' | 'tiered';
export type TiersMode = 'graduated' | 'volume';
export type RecurringInterval = 'day' | 'week' | 'month' | 'year';
export type UsageType = 'licensed' | 'metered';
export type TaxBehavior = 'inclusive' | 'exclusive';

/** A tier of a tiered price: `up_to` is the last quantity it covers, "inf" for the last tier. */
export interface PriceTier {
  up_to: number | 'inf';
  unit_amount: number | null;
  flat_amount: number | null;
}

export interface TransformQuantity {
  divide_by: number;
  round: 'up' | 'down';
}

export interface Recurring {
  interval: RecurringInterval;
  interval_count: number;
  usage_type: UsageType;
}

/** A price; its amounts (unit_amount, tiers, transform_quantity, recurring, currency) never change. */
@Entity({ name: 'prices' })
export class Price extends ModeRecord {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') application_id: string;
  @Column('uuid') product_id: string;
  @Column('text') currency: string;
  @Column('integer') scaling_factor: number;
  @Column('text') type: 'one_time' | 'recurring';
  @Column('text') billing_scheme: BillingScheme;
  @Column('bigint', { nullable: true }) unit_amount: number | null;
  @Column('jsonb', { nullable: true }) tiers: PriceTier[] | null;
  @Column('text', { nullable: true }) tiers_mode: TiersMode | null;
  @Column('jsonb', { nullable: true }) transform_quantity: TransformQuantity | null;
  @Column('jsonb', { nullable: true }) recurring: Recurring | null;
  /** The meter of a metered price (recurring.usage_type metered), else null. */
  @Column('uuid', { nullable: true }) meter_id: string | null;
  @Column('text') tax_behavior: TaxBehavior;
  @Column('boolean') active: boolean;
  @Column('text', { nullable: true }) lookup_key: string | null;
  @Column('jsonb') metadata: Record<string, unknown>;
  @Column('timestamptz') created_at: Date;
  @Column('timestamptz') updated_at: Date;
}
