import { ApiHideProperty, ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  Allow,
  ArrayMaxSize,
  ArrayMinSize,
  IsBoolean,
  IsIn,
  IsInt,
  IsString,
  IsUUID,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { EXAMPLE_ID, EXAMPLE_TIME } from '../../../../common/http/examples.js';
import { MetadataField, NestedArray, NestedField, Optional } from '../../../../common/http/fields.js';
import { CURRENCY_MESSAGE, CURRENCY_PATTERN, IsTierBound, MAX_CATALOG_AMOUNT } from '../amount-fields.js';

export class PriceTierDto {
  @ApiProperty({
    oneOf: [
      { type: 'integer', minimum: 1 },
      { type: 'string', enum: ['inf'] },
    ],
    example: 1000,
    description: 'The last quantity this tier covers; "inf" for the last tier.',
  })
  @IsTierBound()
  up_to: number | 'inf';

  @ApiPropertyOptional({ example: 500, description: 'Per unit, in minor units.' })
  @Optional()
  @IsInt()
  @Min(0)
  @Max(MAX_CATALOG_AMOUNT)
  unit_amount?: number;

  @ApiPropertyOptional({ example: 0, description: 'Once for the tier, in minor units.' })
  @Optional()
  @IsInt()
  @Min(0)
  @Max(MAX_CATALOG_AMOUNT)
  flat_amount?: number;
}

export class TransformQuantityDto {
  @ApiProperty({ example: 10 }) @IsInt() @Min(1) @Max(1_000_000_000) divide_by: number;
  @ApiProperty({ enum: ['up', 'down'], example: 'up' }) @IsIn(['up', 'down']) round: 'up' | 'down';
}

export class RecurringDto {
  @ApiProperty({ enum: ['day', 'week', 'month', 'year'], example: 'month' })
  @IsIn(['day', 'week', 'month', 'year'])
  interval: 'day' | 'week' | 'month' | 'year';

  @ApiPropertyOptional({ example: 1, description: 'Defaults to 1; at most one year in all.' })
  @Optional()
  @IsInt()
  @Min(1)
  @Max(365)
  interval_count?: number;

  @ApiPropertyOptional({ enum: ['licensed', 'metered'], example: 'licensed', description: 'Defaults to licensed.' })
  @Optional()
  @IsIn(['licensed', 'metered'])
  usage_type?: 'licensed' | 'metered';

  @ApiPropertyOptional({ example: EXAMPLE_ID, description: 'The meter of a metered price.' })
  @Optional()
  @IsUUID()
  meter_id?: string;
}

export class CreatePriceDto {
  @ApiProperty({ example: EXAMPLE_ID }) @IsString() @MaxLength(100) product_id: string;

  @ApiProperty({ example: 'THB' }) @Matches(CURRENCY_PATTERN, CURRENCY_MESSAGE) currency: string;

  @ApiPropertyOptional({ example: 29900, description: 'Per unit, in minor units (see scaling_factor); per_unit only.' })
  @Optional()
  @IsInt()
  @Min(0)
  @Max(MAX_CATALOG_AMOUNT)
  unit_amount?: number;

  @ApiPropertyOptional({ enum: ['per_unit', 'tiered'], example: 'per_unit', description: 'Defaults to per_unit.' })
  @Optional()
  @IsIn(['per_unit', 'tiered'])
  billing_scheme?: 'per_unit' | 'tiered';

  @ApiPropertyOptional({ type: [PriceTierDto], description: 'tiered only; up_to ascending, the last "inf".' })
  @Optional()
  @NestedArray(PriceTierDto)
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  tiers?: PriceTierDto[];

  @ApiPropertyOptional({ enum: ['graduated', 'volume'], example: 'graduated' })
  @Optional()
  @IsIn(['graduated', 'volume'])
  tiers_mode?: 'graduated' | 'volume';

  @NestedField(TransformQuantityDto, 'Divides the quantity before rating; per_unit only.')
  transform_quantity?: TransformQuantityDto;

  @NestedField(RecurringDto, 'Present for a recurring price; absent for a one-time price.')
  recurring?: RecurringDto;

  @ApiPropertyOptional({
    enum: ['inclusive', 'exclusive'],
    example: 'exclusive',
    description: 'Defaults to exclusive.',
  })
  @Optional()
  @IsIn(['inclusive', 'exclusive'])
  tax_behavior?: 'inclusive' | 'exclusive';

  @ApiPropertyOptional({ example: true, description: 'Defaults to true.' }) @Optional() @IsBoolean() active?: boolean;

  @ApiPropertyOptional({ example: 'pro_monthly', description: 'Unique among the active prices of the application.' })
  @Optional()
  @IsString()
  @Length(1, 200)
  lookup_key?: string;

  @ApiPropertyOptional({ example: false, description: 'Takes lookup_key from the active price holding it.' })
  @Optional()
  @IsBoolean()
  transfer_lookup_key?: boolean;

  @MetadataField({ plan: 'pro' }) metadata?: Record<string, unknown>;
}

/** The amount fields a price update may not carry: each is refused with E7615, not as an unknown field. */
export const IMMUTABLE_PRICE_FIELDS = [
  'product_id',
  'currency',
  'unit_amount',
  'billing_scheme',
  'tiers',
  'tiers_mode',
  'transform_quantity',
  'recurring',
  'tax_behavior',
] as const;

export class UpdatePriceDto {
  @ApiPropertyOptional({ example: false }) @Optional() @IsBoolean() active?: boolean;

  @ApiPropertyOptional({ example: 'pro_monthly', description: '"" removes the lookup key.' })
  @Optional()
  @IsString()
  @Length(0, 200)
  lookup_key?: string;

  @ApiPropertyOptional({ example: false }) @Optional() @IsBoolean() transfer_lookup_key?: boolean;

  @MetadataField({ plan: 'pro' }) metadata?: Record<string, unknown>;

  @ApiHideProperty() @Allow() product_id?: unknown;
  @ApiHideProperty() @Allow() currency?: unknown;
  @ApiHideProperty() @Allow() unit_amount?: unknown;
  @ApiHideProperty() @Allow() billing_scheme?: unknown;
  @ApiHideProperty() @Allow() tiers?: unknown;
  @ApiHideProperty() @Allow() tiers_mode?: unknown;
  @ApiHideProperty() @Allow() transform_quantity?: unknown;
  @ApiHideProperty() @Allow() recurring?: unknown;
  @ApiHideProperty() @Allow() tax_behavior?: unknown;
}

export class PriceTierResponseDto {
  @ApiProperty({ oneOf: [{ type: 'integer' }, { type: 'string', enum: ['inf'] }], example: 1000 }) up_to:
    number | string;
  @ApiProperty({ example: 500, nullable: true, type: Number }) unit_amount: number | null;
  @ApiProperty({ example: 0, nullable: true, type: Number }) flat_amount: number | null;
}

export class RecurringResponseDto {
  @ApiProperty({ enum: ['day', 'week', 'month', 'year'], example: 'month' }) interval: string;
  @ApiProperty({ example: 1 }) interval_count: number;
  @ApiProperty({ enum: ['licensed', 'metered'], example: 'licensed' }) usage_type: string;
  @ApiProperty({ example: null, nullable: true, type: String }) meter_id: string | null;
}

export class PriceDto {
  @ApiProperty({ example: EXAMPLE_ID }) id: string;
  @ApiProperty({ example: 'price' }) object: string;
  @ApiProperty({ example: false }) livemode: boolean;
  @ApiProperty({ example: EXAMPLE_ID }) product_id: string;
  @ApiProperty({ example: true }) active: boolean;
  @ApiProperty({ example: 'THB' }) currency: string;
  @ApiProperty({ example: 100 }) scaling_factor: number;
  @ApiProperty({ enum: ['one_time', 'recurring'], example: 'recurring' }) type: string;
  @ApiProperty({ enum: ['per_unit', 'tiered'], example: 'per_unit' }) billing_scheme: string;
  @ApiProperty({ example: 29900, nullable: true, type: Number }) unit_amount: number | null;
  @ApiProperty({ type: [PriceTierResponseDto], nullable: true }) tiers: PriceTierResponseDto[] | null;
  @ApiProperty({ enum: ['graduated', 'volume'], nullable: true, example: 'graduated' }) tiers_mode: string | null;
  @ApiProperty({ type: TransformQuantityDto, nullable: true }) transform_quantity: TransformQuantityDto | null;
  @ApiProperty({ type: RecurringResponseDto, nullable: true }) recurring: RecurringResponseDto | null;
  @ApiProperty({ enum: ['inclusive', 'exclusive'], example: 'exclusive' }) tax_behavior: string;
  @ApiProperty({ example: 'pro_monthly', nullable: true, type: String }) lookup_key: string | null;
  @ApiProperty({ example: { plan: 'pro' } }) metadata: Record<string, unknown>;
  @ApiProperty({ example: EXAMPLE_TIME }) created_at: string;
  @ApiProperty({ example: EXAMPLE_TIME }) updated_at: string;
}
