import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsInt, IsUUID, Max, Min } from 'class-validator';
import { Optional } from '../../../common/http/fields.js';

export const DISPUTE_REASONS = [
  'fraudulent',
  'duplicate',
  'product_not_received',
  'product_unacceptable',
  'subscription_canceled',
  'credit_not_processed',
  'unrecognized',
  'general',
] as const;

/** Test helper: what a provider would report when a cardholder disputes a charge. */
export class OpenDisputeDto {
  @ApiProperty({ example: '0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b' })
  @IsUUID()
  charge_id: string;

  @ApiPropertyOptional({ enum: DISPUTE_REASONS, default: 'fraudulent' })
  @Optional()
  @IsIn(DISPUTE_REASONS)
  reason?: (typeof DISPUTE_REASONS)[number];

  @ApiPropertyOptional({ description: 'Disputed amount; defaults to the whole charge.', example: 10000 })
  @Optional()
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  amount?: number;

  @ApiPropertyOptional({
    description:
      'true opens an inquiry (status warning_needs_response) that moves no money; default false: a chargeback (needs_response) that withdraws the amount.',
    default: false,
  })
  @Optional()
  @IsBoolean()
  inquiry?: boolean;
}
