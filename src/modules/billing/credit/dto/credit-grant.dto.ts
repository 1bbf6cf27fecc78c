import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsISO8601,
  IsString,
  IsUUID,
  Length,
  Matches,
  Max,
  Min,
} from 'class-validator';
import { EXAMPLE_ID, EXAMPLE_TIME } from '../../../../common/http/examples.js';
import { MetadataField, NestedObject, Optional } from '../../../../common/http/fields.js';
import { CURRENCY_MESSAGE, CURRENCY_PATTERN, MAX_CATALOG_AMOUNT } from '../../catalog/amount-fields.js';

export class CreditApplicabilityDto {
  @ApiProperty({
    type: [String],
    example: [EXAMPLE_ID],
    description: 'The prices this credit pays for; empty: every price in its currency.',
  })
  @IsArray()
  @ArrayMaxSize(20)
  @IsUUID('all', { each: true, message: 'each price id must be a UUID' })
  price_ids: string[];
}

export class CreateCreditGrantDto {
  @ApiProperty({ example: 50000, description: 'The credit, in minor units of currency (50000 THB = 500.00 THB).' })
  @IsInt()
  @Min(1)
  @Max(MAX_CATALOG_AMOUNT)
  amount: number;

  @ApiProperty({ example: 'THB' }) @Matches(CURRENCY_PATTERN, CURRENCY_MESSAGE) currency: string;

  @ApiPropertyOptional({
    enum: ['paid', 'promotional'],
    example: 'paid',
    description: 'paid: the customer bought it (collected separately); promotional: given away. Defaults to paid.',
  })
  @Optional()
  @IsIn(['paid', 'promotional'])
  category?: 'paid' | 'promotional';

  @ApiPropertyOptional({ example: 'Prepaid April usage' }) @Optional() @IsString() @Length(1, 100) name?: string;

  @ApiPropertyOptional({
    example: '2030-01-01T00:00:00Z',
    description: "When the unused credit expires (by the customer's test clock in test mode); absent: never.",
  })
  @Optional()
  @IsISO8601({ strict: true })
  expires_at?: string;

  @ApiPropertyOptional({ type: CreditApplicabilityDto, description: 'Absent: every price in the currency.' })
  @Optional()
  @NestedObject(CreditApplicabilityDto)
  applicability?: CreditApplicabilityDto;

  @MetadataField({ order: 'PO-1234' }) metadata?: Record<string, unknown>;
}

export class CreditGrantDto {
  @ApiProperty({ example: EXAMPLE_ID }) id: string;
  @ApiProperty({ example: 'billing.credit_grant' }) object: string;
  @ApiProperty({ example: false }) livemode: boolean;
  @ApiProperty({ example: EXAMPLE_ID }) customer_id: string;
  @ApiProperty({ example: 'Prepaid April usage', nullable: true, type: String }) name: string | null;
  @ApiProperty({ enum: ['paid', 'promotional'], example: 'paid' }) category: string;
  @ApiProperty({ example: 50000, description: 'The credit granted, minor units.' }) amount: number;
  @ApiProperty({ example: 42000, description: 'What invoices have not drawn yet (0 once voided or expired).' })
  remaining_amount: number;
  @ApiProperty({ example: 'THB' }) currency: string;
  @ApiProperty({ example: 100 }) scaling_factor: number;
  @ApiProperty({ type: CreditApplicabilityDto }) applicability: CreditApplicabilityDto;
  @ApiProperty({ enum: ['active', 'voided', 'expired'], example: 'active' }) status: string;
  @ApiProperty({ example: EXAMPLE_TIME }) effective_at: string;
  @ApiProperty({ example: null, nullable: true, type: String }) expires_at: string | null;
  @ApiProperty({ example: null, nullable: true, type: String }) voided_at: string | null;
  @ApiProperty({ example: null, nullable: true, type: String }) expired_at: string | null;
  @ApiProperty({ example: EXAMPLE_ID, description: "The ledger balance holding the customer's credit." })
  balance_id: string;
  @ApiProperty({ example: { order: 'PO-1234' } }) metadata: Record<string, unknown>;
  @ApiProperty({ example: EXAMPLE_TIME }) created_at: string;
  @ApiProperty({ example: EXAMPLE_TIME }) updated_at: string;
}
