import { ApiHideProperty, ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow, IsBoolean, IsNumber, IsString, Length, Matches, MaxLength } from 'class-validator';
import { EXAMPLE_ID, EXAMPLE_TIME } from '../../../../common/http/examples.js';
import { MetadataField, Optional } from '../../../../common/http/fields.js';

const COUNTRY = /^[A-Z]{2}$/;
const COUNTRY_MESSAGE = { message: 'country must be an upper-case ISO 3166-1 alpha-2 code such as TH' };

export class CreateTaxRateDto {
  @ApiProperty({ example: 'VAT' }) @IsString() @Length(1, 50) display_name: string;

  @ApiProperty({ example: 7, description: 'Percent, 0 to 100 with at most 4 decimals (7.25 is 7.25%).' })
  @IsNumber({ allowNaN: false, allowInfinity: false })
  percentage: number;

  @ApiProperty({ example: false, description: 'Whether the tax is included in the amounts it applies to.' })
  @IsBoolean()
  inclusive: boolean;

  @ApiPropertyOptional({ example: 'TH' }) @Optional() @Matches(COUNTRY, COUNTRY_MESSAGE) country?: string;
  @ApiPropertyOptional({ example: 'TH' }) @Optional() @IsString() @Length(1, 50) jurisdiction?: string;
  @ApiPropertyOptional({ example: 'Thai VAT' }) @Optional() @IsString() @MaxLength(500) description?: string;
  @ApiPropertyOptional({ example: true, description: 'Defaults to true.' }) @Optional() @IsBoolean() active?: boolean;
  @MetadataField({ region: 'TH' }) metadata?: Record<string, unknown>;
}

export class UpdateTaxRateDto {
  @ApiPropertyOptional({ example: 'VAT' }) @Optional() @IsString() @Length(1, 50) display_name?: string;
  @ApiPropertyOptional({ example: 'TH' }) @Optional() @Matches(COUNTRY, COUNTRY_MESSAGE) country?: string;
  @ApiPropertyOptional({ example: 'TH' }) @Optional() @IsString() @Length(1, 50) jurisdiction?: string;
  @ApiPropertyOptional({ example: 'Thai VAT' }) @Optional() @IsString() @MaxLength(500) description?: string;
  @ApiPropertyOptional({ example: false }) @Optional() @IsBoolean() active?: boolean;
  @MetadataField({ region: 'TH' }) metadata?: Record<string, unknown>;
  @ApiHideProperty() @Allow() percentage?: unknown;
  @ApiHideProperty() @Allow() inclusive?: unknown;
}

export class TaxRateDto {
  @ApiProperty({ example: EXAMPLE_ID }) id: string;
  @ApiProperty({ example: 'tax_rate' }) object: string;
  @ApiProperty({ example: false }) livemode: boolean;
  @ApiProperty({ example: 'VAT' }) display_name: string;
  @ApiProperty({ example: 'Thai VAT', nullable: true, type: String }) description: string | null;
  @ApiProperty({ example: 7 }) percentage: number;
  @ApiProperty({ example: false }) inclusive: boolean;
  @ApiProperty({ example: 'TH', nullable: true, type: String }) country: string | null;
  @ApiProperty({ example: 'TH', nullable: true, type: String }) jurisdiction: string | null;
  @ApiProperty({ example: true }) active: boolean;
  @ApiProperty({ example: { region: 'TH' } }) metadata: Record<string, unknown>;
  @ApiProperty({ example: EXAMPLE_TIME }) created_at: string;
  @ApiProperty({ example: EXAMPLE_TIME }) updated_at: string;
}
