import { Column, Entity, PrimaryColumn } from 'typeorm';
import { ModeRecord } from '../../../common/database/mode-record.js';
import type { BankAccountType } from '../../../providers/ports/transfer.port.js';

/**
 * `not_applicable`: a connected account's bank account (reference only, never sent to a provider);
 * `disabled`: no transfer provider serves the country; `created` / `failed`: the provider's answer.
 */
export type ProviderStatus = 'not_applicable' | 'disabled' | 'created' | 'failed';

/**
 * A payout destination. Account numbers, phone numbers and national IDs are kept whole (a payout
 * needs them) but leave the service only as their last 4 digits.
 */
@Entity({ name: 'bank_accounts' })
export class BankAccount extends ModeRecord {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') application_id: string;
  @Column('uuid') account_id: string;
  /** The owning account's type when the bank account was made: `own` or `connected`. */
  @Column('text') account_kind: 'own' | 'connected';
  @Column('text') type: BankAccountType;
  @Column('text') country: string;
  @Column('text') currency: string;
  @Column('text') account_holder_name: string;
  @Column('text', { nullable: true }) bank_code: string | null;
  @Column('text', { nullable: true }) branch_code: string | null;
  @Column('text', { nullable: true }) account_type: string | null;
  @Column('text', { nullable: true }) account_number: string | null;
  @Column('text', { nullable: true }) phone_number: string | null;
  @Column('text', { nullable: true }) primary_identify_id: string | null;
  @Column('text') last4: string;
  @Column('text', { nullable: true }) provider: string | null;
  @Column('text', { nullable: true }) provider_type: string | null;
  @Column('text') provider_status: ProviderStatus;
  @Column('text', { nullable: true }) recipient_reference: string | null;
  @Column('text', { nullable: true }) routing_number: string | null;
  @Column('uuid', { nullable: true }) intent_id: string | null;
  @Column('jsonb') metadata: Record<string, unknown>;
  @Column('jsonb') labels: string[];
  @Column('timestamptz') created_at: Date;
  @Column('timestamptz') updated_at: Date;
}
