import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsInt, IsUUID, Max, Min } from 'class-validator';
import { EXAMPLE_ID as UUID, EXAMPLE_TIME as TS } from '../../../common/http/examples.js';
import { MetadataField, Optional } from '../../../common/http/fields.js';
import { PAYMENT_METHOD_TYPES } from '../../../providers/ports/payment-method-types.js';
import { REFUND_STATUSES } from '../refund.transitions.js';

export const REFUND_REASONS = ['duplicate', 'fraudulent', 'requested_by_customer'] as const;

/** POST /refunds. */
export class CreateRefundDto {
  @ApiProperty({ example: UUID, description: 'The succeeded charge to refund.' })
  @IsUUID()
  charge_id: string;

  @ApiPropertyOptional({
    example: 5000,
    description:
      'Minor units; defaults to everything left of the charge (its amount less what succeeded and pending refunds took). ' +
      'Sandbox: a refund of exactly 4004 fails (failure_code `refund_declined`).',
  })
  @Optional()
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  amount?: number;

  @ApiPropertyOptional({ enum: REFUND_REASONS, example: 'requested_by_customer' })
  @Optional()
  @IsIn(REFUND_REASONS)
  reason?: (typeof REFUND_REASONS)[number];

  @ApiPropertyOptional({
    example: false,
    default: false,
    description:
      'Destination charges: take the connected account’s share of the refund back from it (its transfer, in proportion to the refund). ' +
      'Otherwise the platform pays the whole refund.',
  })
  @Optional()
  @IsBoolean()
  reverse_transfer?: boolean;

  @ApiPropertyOptional({
    example: false,
    default: false,
    description:
      'Destination charges with reverse_transfer: the platform returns its application fee in proportion to the refund ' +
      '(the connected account then pays only its transfer share). Without it the connected account also pays the fee share.',
  })
  @Optional()
  @IsBoolean()
  refund_application_fee?: boolean;

  @MetadataField({ ticket: 'CS-1042' }) metadata?: Record<string, unknown>;
}

/** The Refund record. */
export class RefundDto {
  @ApiProperty({ example: UUID }) id: string;
  @ApiProperty({ example: 'refund' }) object: string;
  @ApiProperty({ example: false }) livemode: boolean;
  @ApiProperty({ example: UUID }) charge_id: string;
  @ApiProperty({ example: null, nullable: true, type: String }) payment_intent: string | null;
  @ApiProperty({ example: 'succeeded', enum: REFUND_STATUSES }) status: string;
  @ApiProperty({ example: 5000 }) amount: number;
  @ApiProperty({ example: 'THB' }) currency: string;
  @ApiProperty({ example: 100 }) scaling_factor: number;
  @ApiProperty({ example: 'requested_by_customer', nullable: true, enum: REFUND_REASONS }) reason: string | null;
  @ApiProperty({
    example: 'card',
    enum: PAYMENT_METHOD_TYPES,
    description: 'The payment method type the refunded charge was paid with (`payment_method.type` of the charge).',
  })
  method: string;
  @ApiProperty({ example: 'sandbox', nullable: true, type: String }) provider: string | null;
  @ApiProperty({ example: 're_sbx_4f1Zb2', nullable: true, type: String }) reference_id: string | null;
  @ApiProperty({ example: UUID, nullable: true, type: String }) balance_id: string | null;
  @ApiProperty({ example: 5000, description: 'What the refund took from the balance’s available funds.' })
  amount_from_available: number;
  @ApiProperty({ example: 0, description: 'What the refund took from the balance’s held funds.' })
  amount_from_hold: number;
  @ApiProperty({ example: false }) reverse_transfer: boolean;
  @ApiProperty({ example: false }) refund_application_fee: boolean;
  @ApiProperty({ example: 0, description: 'Destination charges: what was taken back from the connected account.' })
  transfer_reversal_amount: number;
  @ApiProperty({ example: null, nullable: true, type: String }) failure_code: string | null;
  @ApiProperty({ example: null, nullable: true, type: String }) failure_reason: string | null;
  @ApiProperty({ example: null, nullable: true, type: String }) failure_message: string | null;
  @ApiProperty({ example: { ticket: 'CS-1042' } }) metadata: Record<string, unknown>;
  @ApiProperty({ example: TS }) created_at: string;
  @ApiProperty({ example: TS }) updated_at: string;
}
