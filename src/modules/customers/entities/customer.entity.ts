import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { ModeRecord } from '../../../common/database/mode-record.js';

export interface Address {
  city?: string | null;
  country?: string | null;
  line1?: string | null;
  line2?: string | null;
  postal_code?: string | null;
  state?: string | null;
}

@Entity({ name: 'customers' })
export class Customer extends ModeRecord {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') application_id: string;
  @Column('text', { nullable: true }) name: string | null;
  @Column('text', { nullable: true }) email: string | null;
  @Column('text', { nullable: true }) phone: string | null;
  @Column('text') tax_exempt: string;
  @Column('text', { nullable: true }) business_name: string | null;
  @Column('text', { nullable: true }) currency: string | null;
  @Column('boolean') is_system: boolean;
  @Column('boolean') is_application_customer: boolean;
  @Column('jsonb', { nullable: true }) address: Address | null;
  @Column('jsonb', { nullable: true }) shipping: { name?: string; phone?: string; address?: Address } | null;
  @Column('jsonb') capabilities: { charge: boolean; transfer: boolean; payout: boolean };
  @Column('jsonb') tax_ids: Array<{ type: string; value: string; country: string | null; verification_status: string }>;
  @Column('jsonb') metadata: Record<string, unknown>;
  @Column('jsonb') labels: string[];
  @Column('jsonb') invoice_settings: Record<string, unknown>;
  @Column('jsonb') preferred_locales: string[];
  /** `not_required`, `pending`, `verified` or `rejected`; a customer must be verified to be charged when KYC is required. */
  @Column('text') kyc_status: string;
  /** The billing provider serving this customer, and its reference there (set by the metering module). */
  @Column('text', { nullable: true }) provider: string | null;
  @Column('text', { nullable: true }) provider_reference: string | null;
  /** The test clock the customer lives on (test mode only; docs/BILLING.md, "Test clocks"), or null. */
  @Column('uuid', { nullable: true }) test_clock_id: string | null;
  @CreateDateColumn({ type: 'timestamptz' }) created_at: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updated_at: Date;
}
