import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsString, IsUUID, MaxLength, ValidateIf } from 'class-validator';
import { LabelsField, MetadataField, NestedField, Optional } from '../../../common/http/fields.js';

export class CustomerInvoiceSettingsDto {
  @ApiPropertyOptional({
    type: String,
    example: '0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b',
    nullable: true,
    description:
      'A payment method attached to this customer (E7030 unknown, E7031 detached or of another customer, E7077 expired); null clears it.',
  })
  @ValidateIf((_o: object, value: unknown) => value !== undefined && value !== null)
  @IsUUID()
  default_payment_method?: string | null;
}

/** `POST /customers/{id}`: the fields sent change; the others stay. */
export class UpdateCustomerDto {
  @ApiPropertyOptional({ example: 'Somchai Jaidee' }) @Optional() @IsString() @MaxLength(200) name?: string;
  @ApiPropertyOptional({ example: 'somchai@example.com' }) @Optional() @IsEmail() @MaxLength(320) email?: string;
  @ApiPropertyOptional({ example: '+66812345678' }) @Optional() @IsString() @MaxLength(40) phone?: string;
  @ApiPropertyOptional() @Optional() @IsString() @MaxLength(200) business_name?: string;
  @MetadataField({ crm_id: '42' }) metadata?: Record<string, unknown>;
  @LabelsField(['vip']) labels?: string[];
  @NestedField(CustomerInvoiceSettingsDto) invoice_settings?: CustomerInvoiceSettingsDto;
}
