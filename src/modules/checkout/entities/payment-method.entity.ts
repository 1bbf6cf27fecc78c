import { Column, Entity, PrimaryColumn } from 'typeorm';
import { ModeRecord } from '../../../common/database/mode-record.js';

@Entity({ name: 'payment_methods' })
export class PaymentMethod extends ModeRecord {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') application_id: string;
  @Column('uuid', { nullable: true }) customer_id: string | null;
  @Column('text') type: string;
  @Column('text', { nullable: true }) brand: string | null;
  @Column('text', { nullable: true }) issuer: string | null;
  @Column('text', { nullable: true }) last4: string | null;
  @Column('integer', { nullable: true }) exp_month: number | null;
  @Column('integer', { nullable: true }) exp_year: number | null;
  @Column('text', { nullable: true }) card_holder_name: string | null;
  @Column('text', { nullable: true }) fingerprint: string | null;
  @Column('text', { default: 'unspecified' }) allow_redisplay: string;
  @Column('text', { nullable: true }) reference_id: string | null;
  @Column('text', { nullable: true }) provider: string | null;
  @Column('text', { nullable: true }) provider_connection_status: string | null;
  @Column('boolean', { default: false }) needs_recollection: boolean;
  @Column('jsonb', { default: {} }) billing_details: Record<string, unknown>;
  @Column('jsonb', { default: {} }) metadata: Record<string, unknown>;
  @Column('jsonb', { default: [] }) labels: string[];
  @Column('timestamptz', { default: () => 'now()' }) created_at: Date;
  @Column('timestamptz', { default: () => 'now()' }) updated_at: Date;
}
