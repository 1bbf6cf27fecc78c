import { Body, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Principal } from '../../common/context/principal.js';
import { AppError } from '../../common/errors/app-error.js';
import { Errors } from '../../common/errors/error-catalog.js';
import { ApiErrors, Auth, CurrentPrincipal, WalletController } from '../../common/http/decorators.js';
import { IdParam } from '../../common/http/id-param.pipe.js';
import { TestModeOnly } from '../../common/http/test-mode-only.js';
import { ApiListQuery, ApiListResponse, ListQueryParams, type ListQuery } from '../../common/list/index.js';
import { DisputeErrors } from './disputes.errors.js';
import { DISPUTE_LIST, DisputesService } from './disputes.service.js';
import { DisputeDto } from './dto/dispute.dto.js';
import { OpenDisputeDto } from './dto/open-dispute.dto.js';

const DISPUTE_ID = new IdParam((id) => new AppError(Errors.E4004, `No dispute with id "${id}" in this country.`));
@WalletController('disputes')
export class DisputesController {
  constructor(private readonly disputes: DisputesService) {}

  @Get()
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'List the disputes of the application country (X-Country)' })
  @ApiListQuery(DISPUTE_LIST)
  @ApiListResponse(DisputeDto)
  @ApiErrors(Errors.E2004)
  list(@CurrentPrincipal() principal: Principal, @ListQueryParams(DISPUTE_LIST) query: ListQuery) {
    return this.disputes.list(principal, query);
  }

  @Get(':id')
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'Retrieve a dispute of the application country' })
  @ApiOkResponse({ type: DisputeDto })
  @ApiErrors(Errors.E4004)
  retrieve(@CurrentPrincipal() principal: Principal, @Param('id', DISPUTE_ID) id: string) {
    return this.disputes.retrieve(principal, id);
  }
}

@WalletController('test_helpers/disputes', { tag: 'test helpers' })
@TestModeOnly()
export class DisputeTestHelpersController {
  constructor(private readonly disputes: DisputesService) {}

  @Post()
  @HttpCode(200)
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'Test mode only: open a dispute on a paid charge, as a provider would' })
  @ApiOkResponse({ type: DisputeDto })
  @ApiErrors(Errors.E2000, Errors.E4004, Errors.E4040, DisputeErrors.E9501, DisputeErrors.E9502)
  open(@CurrentPrincipal() principal: Principal, @Body() dto: OpenDisputeDto) {
    return this.disputes.openForTest(principal, dto);
  }
}
