import { Column, Entity, PrimaryColumn } from 'typeorm';
import { ModeRecord } from '../../../../../common/database/mode-record.js';

@Entity({ name: 'tax_rates' })
export class TaxRate extends ModeRecord {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') application_id: string;
  @Column('text') display_name: string;
  @Column('text', { nullable: true }) description: string | null;
  /** numeric(7,4) read as its exact decimal string ("7.0000"): tax is computed from it, never from a float. */
  @Column('numeric') percentage: string;
  @Column('boolean') inclusive: boolean;
  @Column('text', { nullable: true }) country: string | null;
  @Column('text', { nullable: true }) jurisdiction: string | null;
  @Column('boolean') active: boolean;
  @Column('jsonb') metadata: Record<string, unknown>;
  @Column('timestamptz') created_at: Date;
  @Column('timestamptz') updated_at: Date;
}
