import { Column, Entity, PrimaryColumn } from 'typeorm';
import { ModeRecord } from '../../../common/database/mode-record.js';
import type { PromptPayDetails } from '../../../providers/ports/collection.port.js';
import type { ChargeStatus } from '../payments/charge.transitions.js';

export interface NextActionItem {
  type: string;
  title?: string | null;
  description?: string | null;
  i18n_key?: string | null;
  url?: string | null;
  client_secret?: string | null;
  payment_method?: string | null;
  qr_data?: string | null;
}

export interface InstallmentDetails {
  term: number;
  issuer: string | null;
  card_face_id: string | null;
  interest_amount: number;
  absorption: string | null;
  monthly_amount: number;
  first_amount: number;
}

/** A charge. The collection module creates and updates it through LedgerChargesService. */
@Entity({ name: 'charges' })
export class Charge extends ModeRecord {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') application_id: string;
  @Column('text', { nullable: true }) country: string | null;
  @Column('text') status: ChargeStatus;
  @Column('uuid', { nullable: true }) customer_id: string | null;
  @Column('uuid', { nullable: true }) payment_method_id: string | null;
  /** The registry's type it was made with (null: a charge older than the column, `promptpay` when it has a QR code, else `card`). */
  @Column('text', { nullable: true }) payment_method_type?: string | null;
  @Column('uuid', { nullable: true }) balance_id: string | null;
  @Column('uuid', { nullable: true }) invoice_id: string | null;
  @Column('text', { nullable: true }) payment_intent: string | null;
  @Column('text', { nullable: true }) application: string | null;
  @Column('text', { nullable: true }) application_fee: string | null;
  @Column('text', { nullable: true }) transfer: string | null;
  @Column('text', { nullable: true }) on_behalf_of: string | null;
  @Column('text', { nullable: true }) transfer_group: string | null;
  @Column('text') currency: string;
  @Column('text', { default: 'automatic' }) capture_method: string;
  @Column('text', { nullable: true }) settlement_status: string | null;
  @Column('text', { nullable: true }) failure_reason: string | null;
  @Column('text', { nullable: true }) failure_code: string | null;
  @Column('text', { nullable: true }) failure_message: string | null;
  @Column('text', { nullable: true }) reason_source: string | null;
  @Column('uuid', { nullable: true }) dispute_id: string | null;
  @Column('text', { nullable: true }) dispute_status: string | null;
  @Column('text', { nullable: true }) dispute_reason: string | null;
  @Column('text', { nullable: true }) provider: string | null;
  @Column('text', { nullable: true }) plane: string | null;
  @Column('text', { nullable: true }) reference_id: string | null;
  @Column('bigint') amount: number;
  @Column('bigint', { default: 0 }) application_fee_amount: number;
  @Column('bigint', { default: 0 }) application_tax_amount: number;
  @Column('bigint', { default: 0 }) net_amount: number;
  @Column('bigint', { default: 0 }) amount_refunded: number;
  @Column('bigint', { default: 0 }) amount_captured: number;
  @Column('bigint', { default: 0 }) amount_capturable: number;
  @Column('bigint', { default: 0 }) amount_voided: number;
  /** A capture in flight: the amount it asked its provider for, and when it claimed the authorization. */
  @Column('bigint', { nullable: true }) capture_claim_amount: number | null;
  @Column('timestamptz', { nullable: true }) capture_claimed_at: Date | null;
  @Column('integer', { default: 100 }) scaling_factor: number;
  @Column('bigint', { default: 0 }) dispute_amount: number;
  @Column('bigint', { default: 0 }) gateway_fee_amount: number;
  @Column('bigint', { default: 0 }) credit_covered_fee_amount: number;
  @Column('bigint', { default: 0 }) provider_fee_amount: number;
  @Column('bigint', { default: 0 }) payable_amount: number;
  @Column('boolean', { default: false }) paid: boolean;
  @Column('boolean', { default: false }) canceled: boolean;
  @Column('boolean', { default: false }) refunded: boolean;
  @Column('boolean', { default: false }) captured: boolean;
  @Column('boolean', { default: false }) disputed: boolean;
  @Column('timestamptz', { nullable: true }) expires_at: Date | null;
  @Column('timestamptz', { nullable: true }) canceled_at: Date | null;
  @Column('jsonb', { default: {} }) metadata: Record<string, unknown>;
  @Column('jsonb', { default: [] }) labels: string[];
  @Column('jsonb', { nullable: true }) transfer_data: {
    destination: string;
    amount: number;
    balance_id: string;
  } | null;
  @Column('jsonb', { default: [] }) next_action: NextActionItem[];
  @Column('jsonb', { nullable: true }) promptpay: PromptPayDetails | null;
  @Column('jsonb', { nullable: true }) installment: InstallmentDetails | null;
  @Column('timestamptz', { default: () => 'now()' }) created_at: Date;
  @Column('timestamptz', { default: () => 'now()' }) updated_at: Date;
  /** W3C traceparent of the request that created it (tracing on): the provider's webhook about it links to that trace. Never in the API. */
  @Column('text', { nullable: true }) traceparent?: string | null;
}
