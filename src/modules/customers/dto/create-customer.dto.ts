import { ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsEmail,
  IsIn,
  IsObject,
  IsString,
  IsUUID,
  Matches,
  MaxLength,
} from 'class-validator';
import { LabelsField, MetadataField, NestedArray, NestedField, Optional } from '../../../common/http/fields.js';

export class AddressDto {
  @ApiPropertyOptional() @Optional() @IsString() @MaxLength(200) city?: string;
  @ApiPropertyOptional({ example: 'TH' }) @Optional() @Matches(/^[A-Z]{2}$/) country?: string;
  @ApiPropertyOptional() @Optional() @IsString() @MaxLength(200) line1?: string;
  @ApiPropertyOptional() @Optional() @IsString() @MaxLength(200) line2?: string;
  @ApiPropertyOptional() @Optional() @IsString() @MaxLength(20) postal_code?: string;
  @ApiPropertyOptional() @Optional() @IsString() @MaxLength(200) state?: string;
}

export class ShippingDto {
  @ApiPropertyOptional() @Optional() @IsString() @MaxLength(200) name?: string;
  @ApiPropertyOptional() @Optional() @IsString() @MaxLength(40) phone?: string;
  @NestedField(AddressDto) address?: AddressDto;
}

export class CapabilitiesDto {
  @ApiPropertyOptional() @Optional() @IsBoolean() charge?: boolean;
  @ApiPropertyOptional() @Optional() @IsBoolean() transfer?: boolean;
  @ApiPropertyOptional() @Optional() @IsBoolean() payout?: boolean;
}

export class TaxIdDto {
  @ApiPropertyOptional({ example: 'th_vat' }) @IsString() @MaxLength(40) type: string;
  @ApiPropertyOptional() @IsString() @MaxLength(64) value: string;
  @ApiPropertyOptional({ example: 'TH' }) @Optional() @Matches(/^[A-Z]{2}$/) country?: string;
}

export class CreateCustomerDto {
  @ApiPropertyOptional({ example: 'Somchai Jaidee' }) @Optional() @IsString() @MaxLength(200) name?: string;
  @ApiPropertyOptional({ example: 'somchai@example.com' }) @Optional() @IsEmail() @MaxLength(320) email?: string;
  @ApiPropertyOptional({ example: '+66812345678' }) @Optional() @IsString() @MaxLength(40) phone?: string;
  @ApiPropertyOptional({ enum: ['none', 'exempt', 'reverse'] })
  @Optional()
  @IsIn(['none', 'exempt', 'reverse'])
  tax_exempt?: string;
  @ApiPropertyOptional() @Optional() @IsString() @MaxLength(200) business_name?: string;
  @ApiPropertyOptional({ example: 'THB' })
  @Optional()
  @Matches(/^[A-Z]{3}$/, { message: 'currency must be an upper-case ISO 4217 code' })
  currency?: string;
  @NestedField(AddressDto) address?: AddressDto;
  @NestedField(ShippingDto) shipping?: ShippingDto;
  @NestedField(CapabilitiesDto) capabilities?: CapabilitiesDto;
  @ApiPropertyOptional({ type: [TaxIdDto] })
  @Optional()
  @ArrayMaxSize(10)
  @NestedArray(TaxIdDto)
  tax_ids?: TaxIdDto[];
  @MetadataField({ crm_id: '42' }) metadata?: Record<string, unknown>;
  @LabelsField(['vip']) labels?: string[];
  @ApiPropertyOptional() @Optional() @IsObject() invoice_settings?: Record<string, unknown>;
  @ApiPropertyOptional({ example: ['th-TH'] })
  @Optional()
  @IsArray()
  @ArrayMaxSize(10)
  @IsString({ each: true })
  preferred_locales?: string[];
  @ApiPropertyOptional({ enum: ['not_required', 'pending', 'verified', 'rejected'] })
  @Optional()
  @IsIn(['not_required', 'pending', 'verified', 'rejected'])
  kyc_status?: string;
  @ApiPropertyOptional({
    example: '0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b',
    description: 'Test mode only: the test clock the customer lives on (its trials and periods follow it).',
  })
  @Optional()
  @IsUUID()
  test_clock?: string;
}
