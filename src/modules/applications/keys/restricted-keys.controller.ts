import { Body, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { AccessErrors } from '../../../common/auth/access.errors.js';
import type { Principal } from '../../../common/context/principal.js';
import { Errors } from '../../../common/errors/error-catalog.js';
import { ApiErrors, Auth, CurrentPrincipal, WalletController } from '../../../common/http/decorators.js';
import { IdOf } from '../../../common/http/id-param.pipe.js';
import { ApiListQuery, ApiListResponse, ListQueryParams, type ListQuery } from '../../../common/list/index.js';
import { ApiKeysService, RESTRICTED_KEY_LIST } from './api-keys.service.js';
import {
  CreateRestrictedKeyDto,
  RestrictedKeyDto,
  RollRestrictedKeyDto,
  UpdateRestrictedKeyDto,
} from './dto/restricted-key.dto.js';

const KEY_ID = IdOf('restricted key');

/**
 * Restricted keys of the application, in the request's mode (X-Test-Mode), for its owners:
 * bearer tokens only (a key cannot manage keys), and the roles permissions.ts allows.
 */
@WalletController('restricted_keys', { country: false })
export class RestrictedKeysController {
  constructor(private readonly keys: ApiKeysService) {}

  @Post()
  @HttpCode(200)
  @Auth('user', 'superuser')
  @ApiOperation({ summary: 'Create a restricted key; the answer carries the key, shown only here' })
  @ApiOkResponse({ type: RestrictedKeyDto })
  @ApiErrors(Errors.E2000)
  create(@CurrentPrincipal() principal: Principal, @Body() dto: CreateRestrictedKeyDto) {
    return this.keys.createRestrictedKey(principal.application.id, principal.mode, dto);
  }

  @Get()
  @Auth('user', 'superuser')
  @ApiOperation({ summary: "List the application's restricted keys of the mode (never their secrets)" })
  @ApiListQuery(RESTRICTED_KEY_LIST)
  @ApiListResponse(RestrictedKeyDto)
  @ApiErrors(Errors.E2004)
  list(@CurrentPrincipal() principal: Principal, @ListQueryParams(RESTRICTED_KEY_LIST) query: ListQuery) {
    return this.keys.list(principal.application.id, principal.mode, query);
  }

  @Get(':id')
  @Auth('user', 'superuser')
  @ApiOperation({ summary: 'Retrieve a restricted key (without its secret)' })
  @ApiOkResponse({ type: RestrictedKeyDto })
  @ApiErrors(Errors.E4004)
  retrieve(@CurrentPrincipal() principal: Principal, @Param('id', KEY_ID) id: string) {
    return this.keys.retrieve(principal.application.id, principal.mode, id);
  }

  @Post(':id')
  @HttpCode(200)
  @Auth('user', 'superuser')
  @ApiOperation({ summary: "Update a restricted key's name or permissions (in effect on every replica at once)" })
  @ApiOkResponse({ type: RestrictedKeyDto })
  @ApiErrors(Errors.E2000, Errors.E4004, AccessErrors.E1246)
  update(
    @CurrentPrincipal() principal: Principal,
    @Param('id', KEY_ID) id: string,
    @Body() dto: UpdateRestrictedKeyDto,
  ) {
    return this.keys.updateRestrictedKey(principal.application.id, principal.mode, id, dto);
  }

  @Post(':id/roll')
  @HttpCode(200)
  @Auth('user', 'superuser')
  @ApiOperation({
    summary: 'Replace a restricted key by a new one (shown only here); the old one stops after expire_old_in_seconds',
  })
  @ApiOkResponse({ type: RestrictedKeyDto })
  @ApiErrors(Errors.E2000, Errors.E4004, AccessErrors.E1246)
  roll(@CurrentPrincipal() principal: Principal, @Param('id', KEY_ID) id: string, @Body() dto: RollRestrictedKeyDto) {
    return this.keys.rollRestrictedKey(principal.application.id, principal.mode, id, dto.expire_old_in_seconds ?? 0);
  }

  @Delete(':id')
  @Auth('user', 'superuser')
  @ApiOperation({ summary: 'Revoke a restricted key: refused everywhere before this answers' })
  @ApiOkResponse({ type: RestrictedKeyDto })
  @ApiErrors(Errors.E4004)
  revoke(@CurrentPrincipal() principal: Principal, @Param('id', KEY_ID) id: string) {
    return this.keys.revokeRestrictedKey(principal.application.id, principal.mode, id);
  }
}
