import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsDefined,
  IsIn,
  IsObject,
  IsString,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { EXAMPLE_ID, EXAMPLE_TIME } from '../../../common/http/examples.js';
import { Optional } from '../../../common/http/fields.js';
import { REPORT_TYPES } from '../report-types.js';

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}:\d{2})$/;

export class ReportRunParametersDto {
  @ApiProperty({ example: '2026-11-01T00:00:00+07:00', description: 'RFC 3339; the first moment included.' })
  @IsString()
  @Matches(RFC3339, { message: 'interval_start must be an RFC 3339 timestamp' })
  interval_start: string;

  @ApiProperty({
    example: '2026-11-02T00:00:00+07:00',
    description: 'RFC 3339; the first moment after the report (not in the future).',
  })
  @IsString()
  @Matches(RFC3339, { message: 'interval_end must be an RFC 3339 timestamp' })
  interval_end: string;

  @ApiProperty({ required: false, example: 'thb', description: 'Only this currency (all when absent).' })
  @Optional()
  @Matches(/^[A-Za-z]{3}$/, { message: 'currency must be a three-letter ISO 4217 code' })
  currency?: string;

  @ApiProperty({
    required: false,
    type: [String],
    example: ['balance_transaction_id', 'created', 'net'],
    description: "A subset of the report type's columns (docs/REPORTS.md), in the report's order; all when absent.",
  })
  @Optional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @MaxLength(64, { each: true })
  columns?: string[];

  @ApiProperty({
    required: false,
    example: 'Asia/Bangkok',
    description: 'IANA time zone of the local times; Asia/Bangkok for an application enabled in TH, else UTC.',
  })
  @Optional()
  @IsString()
  @MaxLength(64)
  timezone?: string;
}

export class CreateReportRunDto {
  @ApiProperty({ enum: REPORT_TYPES, example: 'balance_change_from_activity.itemized.1' })
  @IsIn(REPORT_TYPES)
  report_type: string;

  @ApiProperty({ type: ReportRunParametersDto })
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => ReportRunParametersDto)
  parameters: ReportRunParametersDto;
}

class ReportRunParametersObjectDto {
  @ApiProperty({ example: '2026-11-01T00:00:00+07:00' }) interval_start: string;
  @ApiProperty({ example: '2026-11-02T00:00:00+07:00' }) interval_end: string;
  @ApiProperty({ example: 'THB', nullable: true }) currency: string;
  @ApiProperty({ example: null, nullable: true, type: [String] }) columns: string[];
  @ApiProperty({ example: 'Asia/Bangkok' }) timezone: string;
}

/** The report run resource. */
export class ReportRunDto {
  @ApiProperty({ example: EXAMPLE_ID }) id: string;
  @ApiProperty({ example: 'reporting.report_run' }) object: string;
  @ApiProperty({ example: false }) livemode: boolean;
  @ApiProperty({ enum: REPORT_TYPES, example: 'balance_change_from_activity.itemized.1' }) report_type: string;
  @ApiProperty({ type: ReportRunParametersObjectDto }) parameters: ReportRunParametersObjectDto;
  @ApiProperty({ enum: ['pending', 'succeeded', 'failed'], example: 'succeeded' }) status: string;
  @ApiProperty({ example: null, nullable: true, description: 'Why the run failed.' }) error: string;
  @ApiProperty({
    example: EXAMPLE_ID,
    nullable: true,
    description: 'The CSV file id (GET /files/{id}/contents downloads it), once succeeded.',
  })
  result: string;
  @ApiProperty({ example: 1250, nullable: true, description: 'Data rows in the CSV, once succeeded.' })
  row_count: number;
  @ApiProperty({ example: EXAMPLE_TIME }) created_at: string;
  @ApiProperty({ example: EXAMPLE_TIME, nullable: true }) succeeded_at: string;
  @ApiProperty({ example: EXAMPLE_TIME }) updated_at: string;
}
