import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsString, IsUUID, Length, MaxLength } from 'class-validator';
import { EVENT_TYPES } from '../../../common/events/event-types.js';
import { EXAMPLE_ID as UUID, EXAMPLE_TIME as TS } from '../../../common/http/examples.js';
import { MetadataField, Optional } from '../../../common/http/fields.js';

const EVENT_NAMES = ['*', ...Object.keys(EVENT_TYPES)];

export class CreateWebhookEndpointDto {
  @ApiProperty({
    example: 'https://example.com/webhooks/wallet',
    description: 'Live: https:// on a public address. Test mode: may be http://localhost.',
  })
  @IsString()
  @Length(1, 2048)
  url: string;

  @ApiProperty({
    example: ['checkout.completed', 'charge.succeeded'],
    description: '`*` or event types.',
    enum: EVENT_NAMES,
    isArray: true,
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(50)
  @IsString({ each: true })
  enabled_events: string[];

  @ApiPropertyOptional({ example: 'Order fulfilment' })
  @Optional()
  @IsString()
  @MaxLength(500)
  description?: string;

  @MetadataField({ team: 'orders' }) metadata?: Record<string, unknown>;
}

export class UpdateWebhookEndpointDto {
  @ApiPropertyOptional({ example: 'https://example.com/webhooks/wallet' })
  @Optional()
  @IsString()
  @Length(1, 2048)
  url?: string;

  @ApiPropertyOptional({ example: ['*'], enum: EVENT_NAMES, isArray: true })
  @Optional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(50)
  @IsString({ each: true })
  enabled_events?: string[];

  @ApiPropertyOptional({ example: false, description: '`true` disables the endpoint, `false` enables it again.' })
  @Optional()
  @IsBoolean()
  disabled?: boolean;

  @ApiPropertyOptional({ example: 'Order fulfilment' })
  @Optional()
  @IsString()
  @MaxLength(500)
  description?: string;

  @MetadataField({ team: 'orders' }) metadata?: Record<string, unknown>;
}

export class ResendEventDto {
  @ApiPropertyOptional({
    example: UUID,
    description: 'Only to this endpoint; by default to every enabled endpoint the event matches.',
  })
  @Optional()
  @IsUUID()
  webhook_endpoint_id?: string;
}

export class WebhookEndpointDto {
  @ApiProperty({ example: UUID }) id: string;
  @ApiProperty({ example: 'webhook_endpoint' }) object: string;
  @ApiProperty({ example: false }) livemode: boolean;
  @ApiProperty({ example: 'https://example.com/webhooks/wallet' }) url: string;
  @ApiProperty({ example: null, nullable: true }) description: string;
  @ApiProperty({ example: ['*'] }) enabled_events: string[];
  @ApiProperty({ example: 'enabled', enum: ['enabled', 'disabled'] }) status: string;
  @ApiProperty({ example: null, nullable: true }) disabled_reason: string;
  @ApiProperty({ example: null, nullable: true }) disabled_at: string;
  @ApiProperty({ example: null, nullable: true, description: 'Until then the previous secret also signs.' })
  secret_rotation_overlap_until: string;
  @ApiProperty({ example: {} }) metadata: Record<string, unknown>;
  @ApiProperty({ example: TS }) created_at: string;
  @ApiProperty({ example: TS }) updated_at: string;
  @ApiPropertyOptional({
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    description: 'Only in the answers of creation and rotate_secret.',
  })
  secret?: string;
}

export class WebhookAttemptDto {
  @ApiProperty({ example: UUID }) id: string;
  @ApiProperty({ example: 'webhook_delivery_attempt' }) object: string;
  @ApiProperty({ example: false }) livemode: boolean;
  @ApiProperty({ example: UUID }) webhook_endpoint_id: string;
  @ApiProperty({ example: UUID }) event_id: string;
  @ApiProperty({ example: 'checkout.completed' }) event_type: string;
  @ApiProperty({ example: 1 }) attempt: number;
  @ApiProperty({ example: 'failed', enum: ['succeeded', 'failed'] }) outcome: string;
  @ApiProperty({ example: 500, nullable: true }) status_code: number;
  @ApiProperty({ example: 112 }) duration_ms: number;
  @ApiProperty({ example: 'Internal Server Error', nullable: true, description: 'At most 1 KB of the answer.' })
  response_excerpt: string;
  @ApiProperty({ example: null, nullable: true, description: 'Why no answer was had (timeout, refused address).' })
  error: string;
  @ApiProperty({ example: TS, nullable: true }) next_retry_at: string;
  @ApiProperty({ example: TS }) created_at: string;
}

/** `DELETE /webhook_endpoints/{id}`. */
export class DeletedWebhookEndpointDto {
  @ApiProperty({ example: '0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b' }) id: string;
  @ApiProperty({ example: 'webhook_endpoint' }) object: string;
  @ApiProperty({ example: true }) deleted: boolean;
}
