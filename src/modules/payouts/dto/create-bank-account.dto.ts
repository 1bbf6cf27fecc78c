import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsNotEmpty, IsObject, IsString, Length, Matches, MaxLength } from 'class-validator';
import { LabelsField, MetadataField, Optional } from '../../../common/http/fields.js';
import { BANK_ACCOUNT_TYPES } from '../../../providers/ports/transfer.port.js';

/** POST /bank_accounts, as the contract has it. Which fields a type needs is checked by the service. */
export class CreateBankAccountDto {
  @ApiProperty({ description: 'Id of the owning account: your own account or one of your connected accounts.' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  account: string;

  @ApiProperty({ enum: BANK_ACCOUNT_TYPES, example: 'bookbank' })
  @IsIn(BANK_ACCOUNT_TYPES)
  type: string;

  @ApiPropertyOptional({ example: 'Somchai Jaidee', description: 'Required for every type.' })
  @Optional()
  @IsString()
  @Length(1, 140)
  account_holder_name?: string;

  @ApiPropertyOptional({
    example: '+66812345678',
    description: 'promptpay_phone only: a Thai mobile number, 10 digits or +66 form; stored as 10 digits.',
  })
  @Optional()
  @IsString()
  @MaxLength(32)
  phone_number?: string;

  @ApiPropertyOptional({
    example: '1101700230708',
    description: 'promptpay_primary_identify_id only: a 13-digit Thai national ID.',
  })
  @Optional()
  @IsString()
  @MaxLength(32)
  primary_identify_id?: string;

  @ApiPropertyOptional({
    example: { bankCode: '004', accountNumber: '1234567890', branchCode: '0123', accountType: 'savings' },
    description:
      'bookbank only: `bankCode`, `accountNumber`, optional `branchCode` and `accountType` (savings, current). ' +
      'Other keys (e.g. `legalType`) are forwarded verbatim to an enabled provider and never stored.',
  })
  @Optional()
  @IsObject()
  extra_fields?: Record<string, unknown>;

  @ApiPropertyOptional({ example: 'THB', description: 'Currency of the account; required for bookbank.' })
  @Optional()
  @Matches(/^[A-Z]{3}$/, { message: 'target must be an upper-case ISO 4217 currency code' })
  target?: string;

  @ApiPropertyOptional({
    example: 'sandbox',
    description: 'Optional; when sent it must name the transfer provider serving the country.',
  })
  @Optional()
  @IsString()
  @MaxLength(40)
  provider?: string;

  @MetadataField({ payee: '42' }) metadata?: Record<string, unknown>;

  @LabelsField(['primary']) labels?: string[];
}

export class CreateBankAccountIntentDto {
  @ApiProperty({ description: 'Id of the account the hosted page creates a bank account for.' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  account: string;

  @ApiProperty({ example: 'https://partner.example/payouts/done', description: 'Where the page goes once saved.' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(2048)
  return_url: string;

  @ApiProperty({
    example: 'https://partner.example/payouts/new-link',
    description: 'Where an expired or used link goes: your server makes a new intent there.',
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(2048)
  refresh_url: string;

  @MetadataField({ payee: '42' }) metadata?: Record<string, unknown>;
}
