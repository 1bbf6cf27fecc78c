import { Body, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Principal } from '../../common/context/principal.js';
import { Errors } from '../../common/errors/error-catalog.js';
import { ApiErrors, Auth, CurrentPrincipal, WalletController } from '../../common/http/decorators.js';
import { IdOf } from '../../common/http/id-param.pipe.js';
import { ApiListQuery, ApiListResponse, ListQueryParams, type ListQuery } from '../../common/list/index.js';
import {
  CreateReconciliationRunDto,
  ReconciliationItemDto,
  ReconciliationRunDto,
} from './dto/reconciliation-run.dto.js';
import {
  RECONCILIATION_ITEM_LIST,
  RECONCILIATION_RUN_LIST,
  ReconciliationRunsService,
} from './reconciliation-runs.service.js';
import { ReconciliationErrors } from './reconciliation.errors.js';

@WalletController('reconciliation_runs')
export class ReconciliationRunsController {
  constructor(private readonly runs: ReconciliationRunsService) {}

  @Post()
  @HttpCode(200)
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({
    summary: 'Reconcile a provider settlement',
    description:
      "Answers a `pending` run at once; the provider's itemized settlement of the payout (or of the payouts " +
      'created in the interval) is imported and matched with the ledger in the background, and ' +
      '`reconciliation.mismatch` follows when anything does not match. Outcomes: docs/RECONCILIATION.md.',
  })
  @ApiOkResponse({ type: ReconciliationRunDto })
  @ApiErrors(Errors.E2000, ReconciliationErrors.E7960, ReconciliationErrors.E7961)
  create(@CurrentPrincipal() principal: Principal, @Body() dto: CreateReconciliationRunDto) {
    return this.runs.create(principal, dto);
  }

  @Get()
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'List reconciliation runs', description: 'Newest first.' })
  @ApiListQuery(RECONCILIATION_RUN_LIST)
  @ApiListResponse(ReconciliationRunDto)
  @ApiErrors(Errors.E2004)
  list(@CurrentPrincipal() principal: Principal, @ListQueryParams(RECONCILIATION_RUN_LIST) query: ListQuery) {
    return this.runs.list(principal, query);
  }

  @Get(':id')
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'Retrieve a reconciliation run' })
  @ApiOkResponse({ type: ReconciliationRunDto })
  @ApiErrors(Errors.E4004)
  retrieve(@CurrentPrincipal() principal: Principal, @Param('id', IdOf('reconciliation run')) id: string) {
    return this.runs.retrieve(principal, id);
  }

  @Get(':id/items')
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({
    summary: "List a reconciliation run's items",
    description: 'One item per provider reference; `filter[outcome]=fee_mismatch` and the like narrow it.',
  })
  @ApiListQuery(RECONCILIATION_ITEM_LIST)
  @ApiListResponse(ReconciliationItemDto)
  @ApiErrors(Errors.E2004, Errors.E4004)
  items(
    @CurrentPrincipal() principal: Principal,
    @Param('id', IdOf('reconciliation run')) id: string,
    @ListQueryParams(RECONCILIATION_ITEM_LIST) query: ListQuery,
  ) {
    return this.runs.items(principal, id, query);
  }
}
