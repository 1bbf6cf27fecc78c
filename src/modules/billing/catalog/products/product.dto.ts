import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsString, Length, MaxLength } from 'class-validator';
import { EXAMPLE_ID, EXAMPLE_TIME } from '../../../../common/http/examples.js';
import { MetadataField, Optional } from '../../../../common/http/fields.js';

export class CreateProductDto {
  @ApiProperty({ example: 'Pro plan' }) @IsString() @Length(1, 250) name: string;
  @ApiPropertyOptional({ example: 'Up to 10 seats' }) @Optional() @IsString() @MaxLength(1000) description?: string;
  @ApiPropertyOptional({ example: true, description: 'Defaults to true.' }) @Optional() @IsBoolean() active?: boolean;
  @MetadataField({ plan: 'pro' }) metadata?: Record<string, unknown>;
}

export class UpdateProductDto {
  @ApiPropertyOptional({ example: 'Pro plan' }) @Optional() @IsString() @Length(1, 250) name?: string;
  @ApiPropertyOptional({ example: 'Up to 10 seats' }) @Optional() @IsString() @MaxLength(1000) description?: string;
  @ApiPropertyOptional({ example: false }) @Optional() @IsBoolean() active?: boolean;
  @MetadataField({ plan: 'pro' }) metadata?: Record<string, unknown>;
}

export class ProductDto {
  @ApiProperty({ example: EXAMPLE_ID }) id: string;
  @ApiProperty({ example: 'product' }) object: string;
  @ApiProperty({ example: false }) livemode: boolean;
  @ApiProperty({ example: 'Pro plan' }) name: string;
  @ApiProperty({ example: 'Up to 10 seats', nullable: true, type: String }) description: string | null;
  @ApiProperty({ example: true }) active: boolean;
  @ApiProperty({ example: { plan: 'pro' } }) metadata: Record<string, unknown>;
  @ApiProperty({ example: EXAMPLE_TIME }) created_at: string;
  @ApiProperty({ example: EXAMPLE_TIME }) updated_at: string;
}
