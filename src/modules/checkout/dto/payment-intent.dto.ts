import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsInt, IsString, IsUUID, Matches, Max, MaxLength, Min } from 'class-validator';
import { Optional } from '../../../common/http/fields.js';
import { MAX_AMOUNT } from '../checkout-rules.js';
import { CollectionTermsDto, CURRENCY_MESSAGE, CURRENCY_PATTERN } from './common.dto.js';

export class CreatePaymentIntentDto extends CollectionTermsDto {
  @ApiProperty({ description: 'Amount in minor units (see scaling_factor).', example: 125000 })
  @IsInt()
  @Min(1)
  @Max(MAX_AMOUNT)
  amount: number;

  @ApiProperty({ example: 'THB' })
  @Matches(CURRENCY_PATTERN, CURRENCY_MESSAGE)
  currency: string;

  @ApiPropertyOptional({ example: '0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b' })
  @Optional()
  @IsUUID()
  customer_id?: string;

  @ApiPropertyOptional({ example: 'Order 1001' }) @Optional() @IsString() @MaxLength(1000) description?: string;

  @ApiPropertyOptional({
    enum: ['automatic', 'manual'],
    default: 'automatic',
    description:
      '`manual`: a card payment is only authorized (status `requires_capture`, the amount held at the provider for 7 days) ' +
      'until `POST /payment_intents/{id}/capture`; cards only (payment_method_types defaults to ["card"], PromptPay is E7103).',
  })
  @Optional()
  @IsIn(['automatic', 'manual'])
  capture_method?: 'automatic' | 'manual';

  @ApiPropertyOptional({
    example: '0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b',
    description: 'A saved payment method attached to customer_id (E7030, E7031); charged at once with confirm: true.',
  })
  @Optional()
  @IsUUID()
  payment_method?: string;

  @ApiPropertyOptional({
    description:
      'The customer is not present: a card that needs 3-D Secure is not charged, the intent goes requires_action with a next_action link for the customer. Needs confirm: true (E7032).',
  })
  @Optional()
  @IsBoolean()
  off_session?: boolean;

  @ApiPropertyOptional({
    description: 'Charge payment_method now (needs customer_id and payment_method, E7032).',
  })
  @Optional()
  @IsBoolean()
  confirm?: boolean;
}

export class CancelPaymentIntentDto {
  @ApiPropertyOptional({ enum: ['duplicate', 'fraudulent', 'requested_by_customer', 'abandoned'] })
  @Optional()
  @IsString()
  @Matches(/^(duplicate|fraudulent|requested_by_customer|abandoned)$/, {
    message: 'cancellation_reason must be duplicate, fraudulent, requested_by_customer or abandoned',
  })
  cancellation_reason?: string;
}

export class CapturePaymentIntentDto {
  @ApiPropertyOptional({
    description:
      'Minor units to capture, at most amount_capturable (E7102); the rest of the authorization is released. Default: all of it.',
    example: 60000,
  })
  @Optional()
  @IsInt()
  @Min(1)
  @Max(MAX_AMOUNT)
  amount_to_capture?: number;
}
