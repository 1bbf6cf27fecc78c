import { ApiProperty } from '@nestjs/swagger';
import { BalanceDto } from '../../ledger/index.js';
import { PAYMENT_METHOD_TYPES } from '../../../providers/ports/collection.port.js';
import {
  EXAMPLE_ID as UUID,
  EXAMPLE_TIME as TS,
  EMBEDDED_CUSTOMER as CUSTOMER,
} from '../../../common/http/examples.js';

class CardDto {
  @ApiProperty({ example: 'visa', nullable: true }) brand: string;
  @ApiProperty({ example: null, nullable: true }) issuer: string;
  @ApiProperty({ example: '4242', nullable: true }) last4: string;
  @ApiProperty({ example: 12, nullable: true }) exp_month: number;
  @ApiProperty({ example: 2030, nullable: true }) exp_year: number;
  @ApiProperty({ example: 'Xq3v9T0bYc1dE2fG', nullable: true }) fingerprint: string;
  @ApiProperty({ example: 'credit', nullable: true, enum: ['credit', 'debit', 'prepaid', 'unknown'] }) funding: string;
}

/** The Payment method record of the contract. */
export class PaymentMethodDto {
  @ApiProperty({ example: UUID }) id: string;
  @ApiProperty({ example: 'payment_method' }) object: string;
  @ApiProperty({ example: false }) livemode: boolean;
  @ApiProperty({ example: 'card', enum: PAYMENT_METHOD_TYPES }) type: string;
  @ApiProperty({ example: 'visa', nullable: true }) brand: string;
  @ApiProperty({ example: null, nullable: true }) issuer: string;
  @ApiProperty({ example: '4242', nullable: true }) last4: string;
  @ApiProperty({ example: UUID, nullable: true }) customer_id: string;
  @ApiProperty({ example: null, nullable: true }) card_holder_name: string;
  @ApiProperty({ example: null, nullable: true }) fingerprint: string;
  @ApiProperty({ example: 'unspecified' }) allow_redisplay: string;
  @ApiProperty({ example: null, nullable: true }) reference_id: string;
  @ApiProperty({ example: 'sandbox', nullable: true }) provider: string;
  @ApiProperty({ example: null, nullable: true }) provider_connection_status: string;
  @ApiProperty({ example: 12, nullable: true }) exp_month: number;
  @ApiProperty({ example: 2030, nullable: true }) exp_year: number;
  @ApiProperty({ example: false }) needs_recollection: boolean;
  @ApiProperty({
    enum: ['attached', 'detached'],
    nullable: true,
    description: "A saved method's state; null for the one-off method of a charge attempt.",
  })
  status: string;
  @ApiProperty({ example: null, nullable: true }) detached_at: string;
  @ApiProperty({ type: CardDto, nullable: true }) card: CardDto;
  @ApiProperty({ example: {} }) billing_details: Record<string, unknown>;
  @ApiProperty({ example: {} }) metadata: Record<string, unknown>;
  @ApiProperty({ example: [], type: [String] }) labels: string[];
  @ApiProperty({ example: TS }) created_at: string;
  @ApiProperty({ example: TS }) updated_at: string;
  @ApiProperty(CUSTOMER) customer: Record<string, unknown>;
}

/** The Charge record of the contract. */
export class ChargeDto {
  @ApiProperty({ example: UUID }) id: string;
  @ApiProperty({ example: 'charge' }) object: string;
  @ApiProperty({ example: false }) livemode: boolean;
  @ApiProperty({ example: 'succeeded' }) status: string;
  @ApiProperty({ example: UUID, nullable: true }) customer_id: string;
  @ApiProperty({ example: UUID, nullable: true }) payment_method_id: string;
  @ApiProperty({ example: null, nullable: true }) payment_intent: string;
  @ApiProperty({ example: null, nullable: true }) application: string;
  @ApiProperty({ example: null, nullable: true }) application_fee: string;
  @ApiProperty({ example: null, nullable: true }) transfer: string;
  @ApiProperty({ example: null, nullable: true }) on_behalf_of: string;
  @ApiProperty({ example: null, nullable: true }) transfer_group: string;
  @ApiProperty({ example: 'THB' }) currency: string;
  @ApiProperty({ example: 'automatic' }) capture_method: string;
  @ApiProperty({ example: null, nullable: true }) settlement_status: string;
  @ApiProperty({ example: null, nullable: true }) failure_reason: string;
  @ApiProperty({ example: null, nullable: true }) failure_code: string;
  @ApiProperty({ example: null, nullable: true }) failure_message: string;
  @ApiProperty({ example: null, nullable: true }) reason_source: string;
  @ApiProperty({ example: null, nullable: true }) dispute_id: string;
  @ApiProperty({ example: null, nullable: true }) dispute_status: string;
  @ApiProperty({ example: null, nullable: true }) dispute_reason: string;
  @ApiProperty({ example: 'sandbox', nullable: true }) provider: string;
  @ApiProperty({ example: null, nullable: true }) plane: string;
  @ApiProperty({ example: null, nullable: true }) reference_id: string;
  @ApiProperty({ example: 10000 }) amount: number;
  @ApiProperty({ example: 0 }) application_fee_amount: number;
  @ApiProperty({ example: 0 }) application_tax_amount: number;
  @ApiProperty({ example: 10000 }) net_amount: number;
  @ApiProperty({ example: 0 }) amount_refunded: number;
  @ApiProperty({ example: 10000 }) amount_captured: number;
  @ApiProperty({ example: 0 }) amount_capturable: number;
  @ApiProperty({ example: 0 }) amount_voided: number;
  @ApiProperty({ example: 100 }) scaling_factor: number;
  @ApiProperty({ example: 0 }) dispute_amount: number;
  @ApiProperty({ example: 0 }) gateway_fee_amount: number;
  @ApiProperty({ example: 0 }) credit_covered_fee_amount: number;
  @ApiProperty({ example: 0 }) provider_fee_amount: number;
  @ApiProperty({ example: 10000 }) payable_amount: number;
  @ApiProperty({ example: true }) paid: boolean;
  @ApiProperty({ example: false }) canceled: boolean;
  @ApiProperty({ example: false }) refunded: boolean;
  @ApiProperty({ example: true }) captured: boolean;
  @ApiProperty({ example: false }) disputed: boolean;
  @ApiProperty({ example: TS }) created_at: string;
  @ApiProperty({ example: TS }) updated_at: string;
  @ApiProperty({ example: null, nullable: true }) expires_at: string;
  @ApiProperty({ example: null, nullable: true }) canceled_at: string;
  @ApiProperty({ example: {} }) metadata: Record<string, unknown>;
  @ApiProperty({ example: [], type: [String] }) labels: string[];
  @ApiProperty({ type: 'object', nullable: true, additionalProperties: true, example: null })
  transfer_data: Record<string, unknown>;
  @ApiProperty({ type: 'array', items: { type: 'object', additionalProperties: true }, example: [] })
  next_action: Array<Record<string, unknown>>;
  @ApiProperty({ type: 'object', nullable: true, additionalProperties: true, example: null })
  promptpay: Record<string, unknown>;
  @ApiProperty({ type: 'object', nullable: true, additionalProperties: true, example: null })
  installment: Record<string, unknown>;
  @ApiProperty(CUSTOMER) customer: Record<string, unknown>;
  @ApiProperty({ type: PaymentMethodDto, nullable: true }) payment_method: PaymentMethodDto;
  @ApiProperty({ type: BalanceDto, nullable: true }) balance: BalanceDto;
  @ApiProperty({ type: 'object', nullable: true, additionalProperties: true, description: 'The invoice, or null.' })
  invoice: Record<string, unknown>;
}
