import { ApiHideProperty, ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow, IsBoolean, IsInt, IsISO8601, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { EXAMPLE_ID, EXAMPLE_TIME } from '../../../../common/http/examples.js';
import { MetadataField, NestedField, Optional } from '../../../../common/http/fields.js';
import { CURRENCY_MESSAGE, CURRENCY_PATTERN, MAX_CATALOG_AMOUNT } from '../amount-fields.js';
import { CouponDto } from '../coupons/coupon.dto.js';

export class RestrictionsDto {
  @ApiPropertyOptional({ example: false, description: "Only for a customer's first transaction." })
  @Optional()
  @IsBoolean()
  first_time_transaction?: boolean;

  @ApiPropertyOptional({ example: 100000, description: 'In minor units of minimum_amount_currency.' })
  @Optional()
  @IsInt()
  @Min(1)
  @Max(MAX_CATALOG_AMOUNT)
  minimum_amount?: number;

  @ApiPropertyOptional({ example: 'THB' })
  @Optional()
  @Matches(CURRENCY_PATTERN, CURRENCY_MESSAGE)
  minimum_amount_currency?: string;
}

export class CreatePromotionCodeDto {
  @ApiProperty({ example: EXAMPLE_ID }) @IsString() @MaxLength(100) coupon_id: string;

  @ApiPropertyOptional({
    example: 'LAUNCH10',
    description: 'Letters, digits, _ and -, up to 50; unique case-insensitively. Generated when absent.',
  })
  @Optional()
  @Matches(/^[A-Za-z0-9_-]{1,50}$/, { message: 'code must be 1-50 letters, digits, _ or -' })
  code?: string;

  @ApiPropertyOptional({ example: true, description: 'Defaults to true.' }) @Optional() @IsBoolean() active?: boolean;

  @ApiPropertyOptional({ example: 50 }) @Optional() @IsInt() @Min(1) @Max(1_000_000_000) max_redemptions?: number;

  @ApiPropertyOptional({ example: '2027-12-31T23:59:59Z' })
  @Optional()
  @IsISO8601({ strict: true })
  expires_at?: string;

  @NestedField(RestrictionsDto) restrictions?: RestrictionsDto;

  @MetadataField({ campaign: 'launch' }) metadata?: Record<string, unknown>;
}

export const IMMUTABLE_PROMOTION_CODE_FIELDS = [
  'code',
  'coupon_id',
  'max_redemptions',
  'expires_at',
  'restrictions',
] as const;

export class UpdatePromotionCodeDto {
  @ApiPropertyOptional({ example: false }) @Optional() @IsBoolean() active?: boolean;
  @MetadataField({ campaign: 'launch' }) metadata?: Record<string, unknown>;
  @ApiHideProperty() @Allow() code?: unknown;
  @ApiHideProperty() @Allow() coupon_id?: unknown;
  @ApiHideProperty() @Allow() max_redemptions?: unknown;
  @ApiHideProperty() @Allow() expires_at?: unknown;
  @ApiHideProperty() @Allow() restrictions?: unknown;
}

export class RestrictionsResponseDto {
  @ApiProperty({ example: false }) first_time_transaction: boolean;
  @ApiProperty({ example: 100000, nullable: true, type: Number }) minimum_amount: number | null;
  @ApiProperty({ example: 'THB', nullable: true, type: String }) minimum_amount_currency: string | null;
}

export class PromotionCodeDto {
  @ApiProperty({ example: EXAMPLE_ID }) id: string;
  @ApiProperty({ example: 'promotion_code' }) object: string;
  @ApiProperty({ example: false }) livemode: boolean;
  @ApiProperty({ example: 'LAUNCH10' }) code: string;
  @ApiProperty({ type: CouponDto }) coupon: CouponDto;
  @ApiProperty({ example: true }) active: boolean;
  @ApiProperty({ example: 50, nullable: true, type: Number }) max_redemptions: number | null;
  @ApiProperty({ example: '2027-12-31T23:59:59.000Z', nullable: true, type: String }) expires_at: string | null;
  @ApiProperty({ example: 0 }) times_redeemed: number;
  @ApiProperty({ type: RestrictionsResponseDto }) restrictions: RestrictionsResponseDto;
  @ApiProperty({ example: { campaign: 'launch' } }) metadata: Record<string, unknown>;
  @ApiProperty({ example: EXAMPLE_TIME }) created_at: string;
  @ApiProperty({ example: EXAMPLE_TIME }) updated_at: string;
}
