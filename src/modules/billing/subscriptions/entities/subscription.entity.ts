import { Column, Entity, PrimaryColumn } from 'typeorm';
import { ModeRecord } from '../../../../common/database/mode-record.js';
import type { CollectionMethod, RetriesExhaustedAction } from '../dto/subscription.dto.js';
import type { Interval } from '../subscription-periods.js';
import type { SubscriptionStatus } from '../subscription.transitions.js';

/** A customer's subscription to recurring prices (docs/BILLING.md, "Subscriptions"). */
@Entity({ name: 'subscriptions' })
export class Subscription extends ModeRecord {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') application_id: string;
  @Column('uuid') customer_id: string;
  /** The customer's test clock when it was created (customers keep their clock for life). */
  @Column('uuid', { nullable: true }) test_clock_id: string | null;
  @Column('text') status: SubscriptionStatus;
  @Column('text') currency: string;
  @Column('text') interval: Interval;
  @Column('integer') interval_count: number;
  @Column('text') collection_method: CollectionMethod;
  @Column('integer', { nullable: true }) days_until_due: number | null;
  @Column('text', { nullable: true }) default_payment_method: string | null;
  @Column('text', { default: 'cancel' }) retries_exhausted_action: RetriesExhaustedAction;
  @Column('timestamptz') billing_cycle_anchor: Date;
  @Column('timestamptz') current_period_start: Date;
  @Column('timestamptz') current_period_end: Date;
  @Column('timestamptz', { nullable: true }) trial_start: Date | null;
  @Column('timestamptz', { nullable: true }) trial_end: Date | null;
  @Column('boolean') trial_will_end_sent: boolean;
  @Column('boolean') cancel_at_period_end: boolean;
  @Column('timestamptz', { nullable: true }) canceled_at: Date | null;
  @Column('timestamptz', { nullable: true }) ended_at: Date | null;
  @Column('jsonb', { nullable: true }) cancellation_details: Record<string, unknown> | null;
  @Column('text', { nullable: true }) coupon: string | null;
  @Column('text', { nullable: true }) promotion_code: string | null;
  @Column('jsonb') default_tax_rates: string[];
  @Column('uuid', { nullable: true }) latest_invoice: string | null;
  /** When the next time-driven step is due by the customer's clock (subscription-schedule.ts); null when final. */
  @Column('timestamptz', { nullable: true }) next_event_at: Date | null;
  @Column('jsonb') metadata: Record<string, unknown>;
  /** Creation time by the customer's clock. */
  @Column('timestamptz') created: Date;
  @Column('timestamptz') created_at: Date;
  @Column('timestamptz') updated_at: Date;
}
