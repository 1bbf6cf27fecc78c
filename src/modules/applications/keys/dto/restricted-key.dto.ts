import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsString, Max, MaxLength, Min } from 'class-validator';
import { PERMISSION_LEVELS, RESOURCE_GROUPS, type PermissionLevel } from '../../../../common/auth/permissions.js';
import { EXAMPLE_ID as UUID, EXAMPLE_TIME as TS } from '../../../../common/http/examples.js';
import { NestedObject, Optional, stacked } from '../../../../common/http/fields.js';
import { MAX_EXPIRE_OLD_SECONDS } from '../api-keys.service.js';

/** One optional `none | read | write` per resource group of permissions.ts (the property list follows the table). */
export class RestrictedKeyPermissionsDto {
  [group: string]: PermissionLevel | undefined;
}
for (const group of RESOURCE_GROUPS) {
  stacked(
    ApiPropertyOptional({ enum: PERMISSION_LEVELS, example: group === 'charges' ? 'read' : undefined }),
    Optional(),
    IsIn(PERMISSION_LEVELS),
  )(RestrictedKeyPermissionsDto.prototype, group);
}

const PERMISSIONS_DESCRIPTION =
  'The level per resource group (`none`, `read` or `write`); a group not named is `none`. ' +
  '`write` includes `read`. See docs/SECURITY.md for what each group covers.';

export class CreateRestrictedKeyDto {
  @ApiPropertyOptional({ example: 'Reporting job', description: 'A label for people; never part of the key.' })
  @Optional()
  @IsString()
  @MaxLength(200)
  name?: string;

  @ApiProperty({ type: RestrictedKeyPermissionsDto, description: PERMISSIONS_DESCRIPTION })
  @NestedObject(RestrictedKeyPermissionsDto)
  permissions: RestrictedKeyPermissionsDto;
}

export class UpdateRestrictedKeyDto {
  @ApiPropertyOptional({ example: 'Reporting job' })
  @Optional()
  @IsString()
  @MaxLength(200)
  name?: string;

  @ApiPropertyOptional({
    type: RestrictedKeyPermissionsDto,
    description: 'Levels to change; groups not named keep theirs. Takes effect on every replica before the answer.',
  })
  @Optional()
  @NestedObject(RestrictedKeyPermissionsDto)
  permissions?: RestrictedKeyPermissionsDto;
}

export class RollRestrictedKeyDto {
  @ApiPropertyOptional({
    example: 3600,
    minimum: 0,
    maximum: MAX_EXPIRE_OLD_SECONDS,
    description: 'How long the old key keeps working beside the new one, in seconds. Default 0: refused at once.',
  })
  @Optional()
  @IsInt()
  @Min(0)
  @Max(MAX_EXPIRE_OLD_SECONDS)
  expire_old_in_seconds?: number;
}

export class RestrictedKeyDto {
  @ApiProperty({ example: UUID }) id: string;
  @ApiProperty({ example: 'restricted_key' }) object: string;
  @ApiProperty({ example: 'Reporting job', nullable: true, type: String }) name: string | null;
  @ApiProperty({ example: false }) livemode: boolean;
  @ApiProperty({ example: 'rk_live_********a1B2', description: 'The key with all but its last 4 characters hidden.' })
  redacted_key: string;
  @ApiProperty({ type: RestrictedKeyPermissionsDto, description: 'Every resource group with its level.' })
  permissions: RestrictedKeyPermissionsDto;
  @ApiProperty({ enum: ['active', 'expired', 'revoked'], example: 'active' }) status: string;
  @ApiProperty({ example: TS }) created_at: string;
  @ApiProperty({
    example: null,
    nullable: true,
    type: String,
    description: 'Set when the key was rolled: from then on it is refused (E1243).',
  })
  expires_at: string | null;
  @ApiProperty({ example: null, nullable: true, type: String }) revoked_at: string | null;
  @ApiProperty({ example: null, nullable: true, type: String, description: 'The key that replaced this one.' })
  replaced_by: string | null;
  @ApiPropertyOptional({
    example: 'rk_live_0123456789ABCDEFGHIJKLMNOPQRSTUVabcdef',
    description: 'The key itself: only in the answers of creation and roll. Only its SHA-256 is stored.',
  })
  secret?: string;
}
