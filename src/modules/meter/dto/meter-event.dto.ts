import { ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { IsArray, IsObject, IsString, IsUUID, Length, isObject, isString, isUUID, length } from 'class-validator';
import { EXAMPLE_ID as UUID, EXAMPLE_TIME as TS } from '../../../common/http/examples.js';
import { ErrorObjectDto } from '../../../common/http/error-object.dto.js';
import { Optional } from '../../../common/http/fields.js';
import { compiledValidator } from '../../../common/http/validation.js';

export class CreateMeterEventDto {
  @ApiProperty({ example: 'api_call', description: 'Name of the meter event: the event_name of an active meter.' })
  @IsString()
  @Length(1, 100)
  event_name: string;

  @ApiProperty({
    example: '0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b',
    description: "The wallet's customer UUID; the service injects the provider's reference as payload.customer.",
  })
  @IsUUID()
  customer_id: string;

  @ApiPropertyOptional({
    example: 'req_8f2c-001',
    description:
      'Caller-chosen id, unique per application and mode; a repeat returns the original response. Generated when absent.',
  })
  @Optional()
  @IsString()
  @Length(1, 255)
  identifier?: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    example: { api_calls: '25' },
    description: "Only the meter's event_payload_key, its value a numeric string.",
  })
  @IsObject()
  payload: Record<string, string>;

  @ApiPropertyOptional({
    example: '2026-11-22 10:15:00',
    description:
      'UTC, YYYY-MM-DD HH:MM:SS, or RFC 3339 (2026-11-28T12:30:00Z, an offset, a fraction dropped to the second); at most 35 days past and 5 minutes ahead. Defaults to now.',
  })
  @Optional()
  @IsString()
  timestamp?: string;
}

const EVENT_FIELDS = new Set(['event_name', 'customer_id', 'identifier', 'payload', 'timestamp']);

/**
 * The decorators above as one compiled check (the single-event hot path and each batch member): the
 * same class-validator predicates with the same arguments, and no unknown field (the pipe's
 * `forbidNonWhitelisted`). A body it does not accept goes through class-validator, which words the
 * error exactly as before.
 */
compiledValidator(CreateMeterEventDto, (body) => {
  for (const key in body) if (!EVENT_FIELDS.has(key)) return undefined;
  const { event_name, customer_id, identifier, payload, timestamp } = body;
  if (!isString(event_name) || !length(event_name, 1, 100)) return undefined;
  if (!isUUID(customer_id)) return undefined;
  if (identifier !== undefined && (!isString(identifier) || !length(identifier, 1, 255))) return undefined;
  if (!isObject(payload)) return undefined;
  if (timestamp !== undefined && !isString(timestamp)) return undefined;
  const dto = new CreateMeterEventDto();
  dto.event_name = event_name as string;
  dto.customer_id = customer_id as string;
  if ('identifier' in body) dto.identifier = identifier as string;
  dto.payload = payload as Record<string, string>;
  if ('timestamp' in body) dto.timestamp = timestamp as string;
  return dto;
});

export class MeterEventBatchDto {
  @ApiProperty({
    type: [CreateMeterEventDto],
    description: '1 to 100 events; each is validated and answered on its own.',
  })
  @IsArray()
  @IsObject({ each: true })
  events: Array<Record<string, unknown>>;
}

export class CreationErrorDto {
  @ApiProperty({ example: 'E8020' }) code: string;
  @ApiProperty({ example: 'The billing provider did not accept the event yet; it is retried.' }) message: string;
}

class NextActionDto {
  @ApiProperty() type: string;
  @ApiProperty() title: string;
  @ApiProperty() description: string;
  @ApiProperty() i18n_key: string;
  @ApiProperty() url: string;
  @ApiProperty() client_secret: string;
  @ApiProperty() payment_method: string;
  @ApiProperty() qr_data: string;
}

/** The contract's generic creation response. */
export class CreationResponseDto {
  @ApiProperty({ example: '0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b' }) id: string;
  @ApiProperty({ example: 'meter_event' }) object: string;
  @ApiProperty({
    example: 'meter_events/0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b',
    description: 'Path of the stored record, relative to the base.',
  })
  resource: string;
  @ApiProperty({ example: '2026-11-22T10:15:00.000Z' }) created_at: string;
  @ApiProperty({
    type: [CreationErrorDto],
    description: 'What could not be done yet (e.g. forwarding to the provider).',
  })
  errors: CreationErrorDto[];
  @ApiProperty({ type: [NextActionDto] }) next_action: NextActionDto[];
}

/** A stored meter event as `GET /meter_events/{id}` answers it (also the payload of meter_event.* events). */
export class MeterEventDto {
  @ApiProperty({ example: UUID }) id: string;
  @ApiProperty({ example: 'meter_event' }) object: string;
  @ApiProperty({ example: false }) livemode: boolean;
  @ApiProperty({ example: 'api_requests' }) event_name: string;
  @ApiProperty({ example: UUID }) customer_id: string;
  @ApiProperty({ example: 'req-0001' }) identifier: string;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, example: { api_requests: '1' } })
  payload: Record<string, string>;
  @ApiProperty({ example: TS }) timestamp: string;
  @ApiProperty({ example: 'failed' }) delivery_status: string;
  @ApiProperty({ type: String, example: null, nullable: true }) delivered_at: string | null;
  @ApiProperty({ type: [CreationErrorDto], example: [{ code: 'E8021', message: 'Abandoned.' }] })
  errors: CreationErrorDto[];
  @ApiProperty({ example: TS }) created_at: string;
}

/** `POST /meter_events/batch`: one answer per event, in order: a creation response or an error object. */
export class MeterEventBatchResponseDto {
  @ApiProperty({ example: 'list' }) object: string;
  @ApiProperty({
    type: 'array',
    items: { oneOf: [{ $ref: getSchemaPath(CreationResponseDto) }, { $ref: getSchemaPath(ErrorObjectDto) }] },
  })
  data: Array<CreationResponseDto | ErrorObjectDto>;
}
