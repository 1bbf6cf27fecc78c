import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsInt,
  IsISO8601,
  IsString,
  IsUUID,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { NestedArray, Optional } from '../../../common/http/fields.js';
import { MAX_AMOUNT } from '../checkout-rules.js';
import { CollectionTermsDto, CURRENCY_MESSAGE, CURRENCY_PATTERN } from './common.dto.js';

export class InvoiceLineItemDto {
  @ApiProperty({ example: 'Consulting, March' }) @IsString() @Length(1, 500) description: string;

  @ApiProperty({ description: 'Unit amount in minor units; negative for a discount.', example: 50000 })
  @IsInt()
  @Min(-MAX_AMOUNT)
  @Max(MAX_AMOUNT)
  amount: number;

  @ApiPropertyOptional({ default: 1, example: 2 }) @Optional() @IsInt() @Min(1) @Max(10_000) quantity?: number;
}

export class CreateInvoiceDto extends CollectionTermsDto {
  @ApiProperty({ example: '0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b' }) @IsUUID() customer_id: string;

  @ApiProperty({ example: 'THB' })
  @Matches(CURRENCY_PATTERN, CURRENCY_MESSAGE)
  currency: string;

  @ApiProperty({ type: [InvoiceLineItemDto] })
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @NestedArray(InvoiceLineItemDto)
  line_items: InvoiceLineItemDto[];

  @ApiPropertyOptional({ example: '2026-12-31T00:00:00Z' })
  @Optional()
  @IsISO8601({ strict: true })
  due_date?: string;

  @ApiPropertyOptional({ example: 'March services' }) @Optional() @IsString() @MaxLength(1000) description?: string;
}
