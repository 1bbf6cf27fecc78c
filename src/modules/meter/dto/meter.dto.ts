import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsString, Length, Matches } from 'class-validator';
import { NestedObject, Optional } from '../../../common/http/fields.js';

export class ValueSettingsDto {
  @ApiProperty({ example: 'api_calls', description: 'The payload key that carries the metric value.' })
  @Matches(/^[a-z][a-z0-9_]{0,63}$/, {
    message: 'event_payload_key must be 1-64 characters of a-z, 0-9 and _, starting with a letter',
  })
  event_payload_key: string;
}

export class DefaultAggregationDto {
  @ApiProperty({ enum: ['sum', 'count', 'last', 'max'], example: 'sum' })
  @IsIn(['sum', 'count', 'last', 'max'])
  formula: 'sum' | 'count' | 'last' | 'max';
}

export class CreateMeterDto {
  @ApiProperty({ example: 'API calls' }) @IsString() @Length(1, 200) display_name: string;

  @ApiProperty({ example: 'api_call' })
  @Matches(/^[A-Za-z0-9_.:-]{1,100}$/, { message: 'event_name must be 1-100 characters of letters, digits, _ . : -' })
  event_name: string;

  @ApiProperty({ type: ValueSettingsDto })
  @NestedObject(ValueSettingsDto)
  value_settings: ValueSettingsDto;

  @ApiPropertyOptional({ type: DefaultAggregationDto, description: 'Defaults to sum.' })
  @Optional()
  @NestedObject(DefaultAggregationDto)
  default_aggregation?: DefaultAggregationDto;

  @ApiPropertyOptional({
    example: false,
    description:
      'Refuse (E8030, 402) an event whose rated cost would take the customer\'s unbilled usage past its remaining prepaid credit (docs/BILLING.md, "Prepaid credit"). Defaults to false.',
  })
  @Optional()
  @IsBoolean()
  enforce_credit?: boolean;
}

/** `POST /meters/{id}`: the display name and credit enforcement; the event name, key and formula never change. */
export class UpdateMeterDto {
  @ApiPropertyOptional({ example: 'API calls' }) @Optional() @IsString() @Length(1, 200) display_name?: string;

  @ApiPropertyOptional({
    example: false,
    description:
      'Refuse (E8030, 402) an event whose rated cost would take the customer\'s unbilled usage past its remaining prepaid credit (docs/BILLING.md, "Prepaid credit"). Defaults to false.',
  })
  @Optional()
  @IsBoolean()
  enforce_credit?: boolean;
}

export class MeterDto {
  @ApiProperty({ example: '0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b' }) id: string;
  @ApiProperty({ example: 'billing.meter' }) object: string;
  @ApiProperty({ example: false }) livemode: boolean;
  @ApiProperty({ example: 'API calls' }) display_name: string;
  @ApiProperty({ example: 'api_call' }) event_name: string;
  @ApiProperty({ enum: ['active', 'inactive'] }) status: string;
  @ApiProperty({ type: ValueSettingsDto }) value_settings: ValueSettingsDto;
  @ApiProperty({ type: DefaultAggregationDto }) default_aggregation: DefaultAggregationDto;
  @ApiProperty({ example: false, description: "Events are refused past the customer's prepaid credit." })
  enforce_credit: boolean;
  @ApiProperty({ example: { event_payload_key: 'customer', type: 'by_id' } }) customer_mapping: Record<string, string>;
  @ApiProperty({ example: '2026-11-22T16:30:30.583Z' }) created_at: string;
  @ApiProperty({ example: '2026-11-22T16:30:30.583Z' }) updated_at: string;
}

export class SummaryQueryDto {
  @ApiProperty({ description: 'Customer id.' }) @IsString() customer_id: string;
  @ApiProperty({ example: '2026-11-01T00:00:00Z' }) @IsString() start_time: string;
  @ApiProperty({ example: '2026-11-02T00:00:00Z' }) @IsString() end_time: string;
  @ApiPropertyOptional({ enum: ['hour', 'day'] }) @Optional() @IsIn(['hour', 'day']) value_grouping_window?:
    'hour' | 'day';
}

/** One window of `GET /meters/{id}/event_summaries`. */
export class MeterEventSummaryDto {
  @ApiProperty({ example: 'billing.meter_event_summary' }) object: string;
  @ApiProperty({ example: false }) livemode: boolean;
  @ApiProperty({ example: '0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b' }) meter: string;
  @ApiProperty({ example: '0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b' }) customer_id: string;
  @ApiProperty({ example: 25 }) aggregated_value: number;
  @ApiProperty({ example: '2026-11-01T00:00:00.000Z' }) start_time: string;
  @ApiProperty({ example: '2026-11-01T01:00:00.000Z' }) end_time: string;
}

export class MeterEventSummaryListDto {
  @ApiProperty({ example: 'list' }) object: string;
  @ApiProperty({ type: [MeterEventSummaryDto] }) data: MeterEventSummaryDto[];
  @ApiProperty({ example: 1 }) page: number;
  @ApiProperty({ example: 24 }) limit: number;
  @ApiProperty({ example: 24 }) total_items: number;
  @ApiProperty({ example: 1 }) total_pages: number;
}
