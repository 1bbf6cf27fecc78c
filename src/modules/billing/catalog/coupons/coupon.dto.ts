import { ApiHideProperty, ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow, IsIn, IsInt, IsISO8601, IsNumber, IsString, Length, Matches, Max, Min } from 'class-validator';
import { EXAMPLE_ID, EXAMPLE_TIME } from '../../../../common/http/examples.js';
import { MetadataField, Optional } from '../../../../common/http/fields.js';
import { CURRENCY_MESSAGE, CURRENCY_PATTERN, MAX_CATALOG_AMOUNT } from '../amount-fields.js';

export class CreateCouponDto {
  @ApiPropertyOptional({ example: 'Launch 10%' }) @Optional() @IsString() @Length(1, 100) name?: string;

  @ApiPropertyOptional({ example: 10, description: 'Percent off, more than 0 and at most 100, at most 2 decimals.' })
  @Optional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  percent_off?: number;

  @ApiPropertyOptional({ example: 5000, description: 'Amount off in minor units; needs currency.' })
  @Optional()
  @IsInt()
  @Min(1)
  @Max(MAX_CATALOG_AMOUNT)
  amount_off?: number;

  @ApiPropertyOptional({ example: 'THB', description: 'The currency of amount_off.' })
  @Optional()
  @Matches(CURRENCY_PATTERN, CURRENCY_MESSAGE)
  currency?: string;

  @ApiPropertyOptional({ enum: ['once', 'repeating', 'forever'], example: 'once', description: 'Defaults to once.' })
  @Optional()
  @IsIn(['once', 'repeating', 'forever'])
  duration?: 'once' | 'repeating' | 'forever';

  @ApiPropertyOptional({ example: 3, description: 'Months a repeating coupon applies for.' })
  @Optional()
  @IsInt()
  @Min(1)
  @Max(120)
  duration_in_months?: number;

  @ApiPropertyOptional({ example: 100 }) @Optional() @IsInt() @Min(1) @Max(1_000_000_000) max_redemptions?: number;

  @ApiPropertyOptional({ example: '2027-12-31T23:59:59Z', description: 'The last moment the coupon can be redeemed.' })
  @Optional()
  @IsISO8601({ strict: true })
  redeem_by?: string;

  @MetadataField({ campaign: 'launch' }) metadata?: Record<string, unknown>;
}

export const IMMUTABLE_COUPON_FIELDS = [
  'percent_off',
  'amount_off',
  'currency',
  'duration',
  'duration_in_months',
  'max_redemptions',
  'redeem_by',
] as const;

export class UpdateCouponDto {
  @ApiPropertyOptional({ example: 'Launch 10%' }) @Optional() @IsString() @Length(1, 100) name?: string;
  @MetadataField({ campaign: 'launch' }) metadata?: Record<string, unknown>;
  @ApiHideProperty() @Allow() percent_off?: unknown;
  @ApiHideProperty() @Allow() amount_off?: unknown;
  @ApiHideProperty() @Allow() currency?: unknown;
  @ApiHideProperty() @Allow() duration?: unknown;
  @ApiHideProperty() @Allow() duration_in_months?: unknown;
  @ApiHideProperty() @Allow() max_redemptions?: unknown;
  @ApiHideProperty() @Allow() redeem_by?: unknown;
}

export class CouponDto {
  @ApiProperty({ example: EXAMPLE_ID }) id: string;
  @ApiProperty({ example: 'coupon' }) object: string;
  @ApiProperty({ example: false }) livemode: boolean;
  @ApiProperty({ example: 'Launch 10%', nullable: true, type: String }) name: string | null;
  @ApiProperty({ example: 10, nullable: true, type: Number }) percent_off: number | null;
  @ApiProperty({ example: null, nullable: true, type: Number }) amount_off: number | null;
  @ApiProperty({ example: null, nullable: true, type: String }) currency: string | null;
  @ApiProperty({ example: null, nullable: true, type: Number }) scaling_factor: number | null;
  @ApiProperty({ enum: ['once', 'repeating', 'forever'], example: 'once' }) duration: string;
  @ApiProperty({ example: null, nullable: true, type: Number }) duration_in_months: number | null;
  @ApiProperty({ example: 100, nullable: true, type: Number }) max_redemptions: number | null;
  @ApiProperty({ example: '2027-12-31T23:59:59.000Z', nullable: true, type: String }) redeem_by: string | null;
  @ApiProperty({ example: 0 }) times_redeemed: number;
  @ApiProperty({ example: true, description: 'Whether it can still be redeemed.' }) valid: boolean;
  @ApiProperty({ example: { campaign: 'launch' } }) metadata: Record<string, unknown>;
  @ApiProperty({ example: EXAMPLE_TIME }) created_at: string;
  @ApiProperty({ example: EXAMPLE_TIME }) updated_at: string;
}

export class DeletedCouponDto {
  @ApiProperty({ example: EXAMPLE_ID }) id: string;
  @ApiProperty({ example: 'coupon' }) object: string;
  @ApiProperty({ example: false }) livemode: boolean;
  @ApiProperty({ example: true }) deleted: boolean;
}
