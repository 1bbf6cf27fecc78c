import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Matches } from 'class-validator';
import { Optional } from '../../../common/http/fields.js';

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}:\d{2})$/;

class AuditActorDto {
  @ApiProperty({ enum: ['secret_key', 'user', 'session', 'cli', 'system', 'anonymous'] }) type: string;
  @ApiProperty({
    nullable: true,
    example: '0192f3a0-7c1e-7d2a-9b1f-3c4d5e6f7a8b',
    description: 'Key id, user id, session id, operator or job.',
  })
  id: string;
}

class AuditTargetDto {
  @ApiProperty({ example: 'webhook_endpoint' }) type: string;
  @ApiProperty({ nullable: true, example: '0192f3a0-7c1e-7d2a-9b1f-3c4d5e6f7a8b' }) id: string;
}

class AuditChangesDto {
  @ApiProperty({ nullable: true, type: 'object', additionalProperties: true }) before: Record<string, unknown>;
  @ApiProperty({ nullable: true, type: 'object', additionalProperties: true }) after: Record<string, unknown>;
}

class AuditChainLinkDto {
  @ApiProperty({ example: 42, description: "The row's place in its application's chain, from 1." }) seq: number;
  @ApiProperty({ example: '0'.repeat(64) }) prev_hash: string;
  @ApiProperty({ example: '9f2c'.repeat(16) }) entry_hash: string;
}

export class AuditEventDto {
  @ApiProperty({ example: '0192f3a0-7c1e-7d2a-9b1f-3c4d5e6f7a8b' }) id: string;
  @ApiProperty({ example: 'audit_event' }) object: string;
  @ApiProperty({ nullable: true, description: 'The mode of the change; null when it has none (a role, a login).' })
  livemode: boolean;
  @ApiProperty({ type: AuditActorDto }) actor: AuditActorDto;
  @ApiProperty({ example: 'webhook_endpoint.secret_rotated' }) action: string;
  @ApiProperty({ type: AuditTargetDto }) target: AuditTargetDto;
  @ApiProperty({ nullable: true, example: 'req_01J9Z3' }) request_id: string;
  @ApiProperty({ nullable: true, example: '203.0.113.7' }) client_address: string;
  @ApiProperty({ nullable: true, example: 'wallet-sdk/1.4' }) user_agent: string;
  @ApiProperty({ type: AuditChangesDto, nullable: true, description: 'Configuration objects only; secrets never.' })
  changes: AuditChangesDto;
  @ApiProperty({ type: 'object', additionalProperties: true }) metadata: Record<string, unknown>;
  @ApiProperty({ example: '2026-11-29T02:00:00.000Z' }) created_at: string;
  @ApiProperty({ type: AuditChainLinkDto }) chain: AuditChainLinkDto;
}

export class AuditExportQueryDto {
  @ApiPropertyOptional({
    description: 'Rows created at or after this instant (RFC 3339).',
    example: '2026-11-01T00:00:00Z',
  })
  @Optional()
  @Matches(RFC3339, { message: 'from must be an RFC 3339 timestamp' })
  from?: string;

  @ApiPropertyOptional({ description: 'Rows created before this instant (RFC 3339).', example: '2026-12-01T00:00:00Z' })
  @Optional()
  @Matches(RFC3339, { message: 'to must be an RFC 3339 timestamp' })
  to?: string;
}
