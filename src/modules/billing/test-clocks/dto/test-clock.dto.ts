import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsISO8601, IsString, Length } from 'class-validator';
import { EXAMPLE_ID, EXAMPLE_TIME } from '../../../../common/http/examples.js';
import { Optional } from '../../../../common/http/fields.js';

/** POST /test_helpers/test_clocks. */
export class CreateTestClockDto {
  @ApiProperty({ example: EXAMPLE_TIME, description: 'RFC 3339: the time the clock starts at.' })
  @IsISO8601({ strict: true, strictSeparator: true })
  frozen_time: string;

  @ApiPropertyOptional({ example: 'Monthly plan, trial of 14 days' })
  @Optional()
  @IsString()
  @Length(1, 200)
  name?: string;
}

/** POST /test_helpers/test_clocks/{id}/advance. */
export class AdvanceTestClockDto {
  @ApiProperty({
    example: '2026-12-22T16:30:30.583Z',
    description: 'RFC 3339: later than the current frozen_time, at most two years after it.',
  })
  @IsISO8601({ strict: true, strictSeparator: true })
  frozen_time: string;
}

class AdvancingDetailsDto {
  @ApiProperty({ example: EXAMPLE_TIME }) target_frozen_time: string;
}

class TestClockStatusDetailsDto {
  @ApiPropertyOptional({ type: AdvancingDetailsDto }) advancing?: AdvancingDetailsDto;
}

export class TestClockDto {
  @ApiProperty({ example: EXAMPLE_ID }) id: string;
  @ApiProperty({ example: 'test_helpers.test_clock' }) object: string;
  @ApiProperty({ example: false }) livemode: boolean;
  @ApiProperty({ example: 'Monthly plan, trial of 14 days', nullable: true }) name: string;
  @ApiProperty({ example: EXAMPLE_TIME }) frozen_time: string;
  @ApiProperty({ example: 'ready', enum: ['ready', 'advancing'] }) status: string;
  @ApiProperty({ type: TestClockStatusDetailsDto }) status_details: TestClockStatusDetailsDto;
  @ApiProperty({ example: EXAMPLE_TIME }) created_at: string;
  @ApiProperty({ example: EXAMPLE_TIME }) updated_at: string;
}

export class DeletedTestClockDto {
  @ApiProperty({ example: EXAMPLE_ID }) id: string;
  @ApiProperty({ example: 'test_helpers.test_clock' }) object: string;
  @ApiProperty({ example: true }) deleted: boolean;
}
