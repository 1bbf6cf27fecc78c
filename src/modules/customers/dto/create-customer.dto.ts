import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsEmail,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { LabelsField, MetadataField, NestedField } from '../../../common/http/fields.js';

export class AddressDto {
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(200) city?: string;
  @ApiPropertyOptional({ example: 'TH' }) @IsOptional() @Matches(/^[A-Z]{2}$/) country?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(200) line1?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(200) line2?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(20) postal_code?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(200) state?: string;
}

export class ShippingDto {
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(200) name?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(40) phone?: string;
  @NestedField(AddressDto) address?: AddressDto;
}

export class CapabilitiesDto {
  @ApiPropertyOptional() @IsOptional() @IsBoolean() charge?: boolean;
  @ApiPropertyOptional() @IsOptional() @IsBoolean() transfer?: boolean;
  @ApiPropertyOptional() @IsOptional() @IsBoolean() payout?: boolean;
}

export class TaxIdDto {
  @ApiPropertyOptional({ example: 'th_vat' }) @IsString() @MaxLength(40) type: string;
  @ApiPropertyOptional() @IsString() @MaxLength(64) value: string;
  @ApiPropertyOptional({ example: 'TH' }) @IsOptional() @Matches(/^[A-Z]{2}$/) country?: string;
}

export class CreateCustomerDto {
  @ApiPropertyOptional({ example: 'Somchai Jaidee' }) @IsOptional() @IsString() @MaxLength(200) name?: string;
  @ApiPropertyOptional({ example: 'somchai@example.com' }) @IsOptional() @IsEmail() @MaxLength(320) email?: string;
  @ApiPropertyOptional({ example: '+66812345678' }) @IsOptional() @IsString() @MaxLength(40) phone?: string;
  @ApiPropertyOptional({ enum: ['none', 'exempt', 'reverse'] })
  @IsOptional()
  @IsIn(['none', 'exempt', 'reverse'])
  tax_exempt?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(200) business_name?: string;
  @ApiPropertyOptional({ example: 'THB' })
  @IsOptional()
  @Matches(/^[A-Z]{3}$/, { message: 'currency must be an upper-case ISO 4217 code' })
  currency?: string;
  @NestedField(AddressDto) address?: AddressDto;
  @NestedField(ShippingDto) shipping?: ShippingDto;
  @NestedField(CapabilitiesDto) capabilities?: CapabilitiesDto;
  @ApiPropertyOptional({ type: [TaxIdDto] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(10)
  @ValidateNested({ each: true })
  @Type(() => TaxIdDto)
  tax_ids?: TaxIdDto[];
  @MetadataField({ crm_id: '42' }) metadata?: Record<string, unknown>;
  @LabelsField(['vip']) labels?: string[];
  @ApiPropertyOptional() @IsOptional() @IsObject() invoice_settings?: Record<string, unknown>;
  @ApiPropertyOptional({ example: ['th-TH'] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(10)
  @IsString({ each: true })
  preferred_locales?: string[];
  @ApiPropertyOptional({ enum: ['not_required', 'pending', 'verified', 'rejected'] })
  @IsOptional()
  @IsIn(['not_required', 'pending', 'verified', 'rejected'])
  kyc_status?: string;
}
