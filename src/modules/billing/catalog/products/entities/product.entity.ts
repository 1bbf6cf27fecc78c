import { Column, Entity, PrimaryColumn } from 'typeorm';
import { ModeRecord } from '../../../../../common/database/mode-record.js';

@Entity({ name: 'products' })
export class Product extends ModeRecord {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') application_id: string;
  @Column('text') name: string;
  @Column('text', { nullable: true }) description: string | null;
  @Column('boolean') active: boolean;
  @Column('jsonb') metadata: Record<string, unknown>;
  @Column('timestamptz') created_at: Date;
  @Column('timestamptz') updated_at: Date;
}
