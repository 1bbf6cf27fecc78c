import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMinSize, ArrayUnique, IsArray, IsIn, IsInt, IsUUID, Max, Min } from 'class-validator';
import { LabelsField, MetadataField, NestedField, Optional, stacked } from '../../../common/http/fields.js';
import { MAX_AMOUNT } from '../checkout-rules.js';
import { PAYMENT_METHOD_TYPES } from '../../../providers/ports/collection.port.js';

export const CURRENCY_MESSAGE = { message: 'currency must be an upper-case ISO 4217 code such as THB' };

/** Optional `payment_method_types`: distinct types from PAYMENT_METHOD_TYPES, at least one. */
export function PaymentMethodTypesField(doc: { example?: string[]; description?: string }) {
  return stacked(
    ApiPropertyOptional({ enum: PAYMENT_METHOD_TYPES, isArray: true, ...doc }),
    Optional(),
    IsArray(),
    ArrayMinSize(1),
    ArrayUnique(),
    IsIn(PAYMENT_METHOD_TYPES, { each: true }),
  );
}

export class TransferDataDto {
  @ApiProperty({
    description: 'A connected account of this application (same mode) that receives the payment.',
    example: '0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b',
  })
  @IsUUID()
  destination: string;
}

/** The fields payment intents and invoices share: how they may be paid and who receives the money. */
export class CollectionTermsDto {
  @PaymentMethodTypesField({ example: ['card', 'promptpay'] }) payment_method_types?: string[];

  @NestedField(TransferDataDto) transfer_data?: TransferDataDto;

  @ApiPropertyOptional({
    description: 'Kept by the application from a payment to transfer_data.destination (minor units).',
    example: 500,
  })
  @Optional()
  @IsInt()
  @Min(0)
  @Max(MAX_AMOUNT)
  application_fee_amount?: number;

  @MetadataField({ order_id: '1001' }) metadata?: Record<string, unknown>;

  @LabelsField(['web']) labels?: string[];
}

export const CURRENCY_PATTERN = /^[A-Z]{3}$/;
