import { Column, Entity, PrimaryColumn } from 'typeorm';
import { ModeRecord } from '../../../../common/database/mode-record.js';

/** One price of a subscription; `quantity` is null for a metered price. */
@Entity({ name: 'subscription_items' })
export class SubscriptionItem extends ModeRecord {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') application_id: string;
  @Column('uuid') subscription_id: string;
  @Column('uuid') price_id: string;
  @Column('integer', { nullable: true }) quantity: number | null;
  @Column('jsonb') metadata: Record<string, unknown>;
  @Column('timestamptz') created_at: Date;
}
