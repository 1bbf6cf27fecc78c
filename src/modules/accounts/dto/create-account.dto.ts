import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsString, Length, Matches, MaxLength } from 'class-validator';
import { LabelsField, MetadataField, Optional } from '../../../common/http/fields.js';

/** A connected account: a business the application pays out to on its behalf. */
export class CreateAccountDto {
  @ApiPropertyOptional({ example: 'Baan Somchai' }) @Optional() @IsString() @Length(1, 200) name?: string;
  @ApiPropertyOptional({ example: 'Baan Somchai Co., Ltd.' })
  @Optional()
  @IsString()
  @Length(1, 200)
  business_name?: string;
  @ApiPropertyOptional({ example: 'finance@baansomchai.co.th' })
  @Optional()
  @IsEmail()
  @MaxLength(320)
  email?: string;
  @ApiPropertyOptional({ example: 'TH', description: 'Defaults to the request X-Country.' })
  @Optional()
  @Matches(/^[A-Z]{2}$/, { message: 'country must be an upper-case ISO 3166-1 alpha-2 code' })
  country?: string;
  @ApiPropertyOptional({ example: 'THB' })
  @Optional()
  @Matches(/^[A-Z]{3}$/, { message: 'default_currency must be an upper-case ISO 4217 code' })
  default_currency?: string;
  @MetadataField({ crm_id: '42' }) metadata?: Record<string, unknown>;
  @LabelsField(['marketplace']) labels?: string[];
}

export class RejectAccountDto {
  @ApiPropertyOptional({ example: 'documents_unreadable' })
  @Optional()
  @IsString()
  @Length(1, 500)
  reason?: string;
}
