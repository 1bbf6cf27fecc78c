import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { EVENT_TYPES } from '../../../common/events/event-types.js';
import { EXAMPLE_ID as UUID, EXAMPLE_TIME as TS } from '../../../common/http/examples.js';

export class EventRequestDto {
  @ApiProperty({ example: 'req_01J9Z3' }) id: string;
  @ApiProperty({ example: null, nullable: true }) idempotency_key: string;
}

export class EventDataDto {
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      "The resource as the API returns it (embedded records not expanded); each type's schema is `Event_<type>`.",
  })
  object: Record<string, unknown>;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'The changed fields, as they were.' })
  previous_attributes?: Record<string, unknown>;
}

/** An event (the envelope; `components.schemas.Event_<type>` types `data.object` for each type). */
export class EventDto {
  @ApiProperty({ example: UUID }) id: string;
  @ApiProperty({ example: 'event' }) object: string;
  @ApiProperty({ example: 'checkout.completed', enum: Object.keys(EVENT_TYPES) }) type: string;
  @ApiProperty({ example: TS }) created: string;
  @ApiProperty({ example: false }) livemode: boolean;
  @ApiProperty({ example: 'v1' }) api_version: string;
  @ApiProperty({ type: EventDataDto }) data: EventDataDto;
  @ApiProperty({ type: EventRequestDto, nullable: true }) request: EventRequestDto;
}
