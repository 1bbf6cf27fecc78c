import { Body, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Principal } from '../../common/context/principal.js';
import { Errors } from '../../common/errors/error-catalog.js';
import { ApiErrors, Auth, CurrentPrincipal, WalletController } from '../../common/http/decorators.js';
import { IdOf } from '../../common/http/id-param.pipe.js';
import { ReadReplicaTolerant } from '../../common/http/read-replica-tolerant.js';
import { ApiListQuery, ApiListResponse, ListQueryParams, type ListQuery } from '../../common/list/index.js';
import { CreateReportRunDto, ReportRunDto } from './dto/report-run.dto.js';
import { REPORT_RUN_LIST, ReportRunsService } from './report-runs.service.js';
import { ReportingErrors } from './reporting.errors.js';

@WalletController('reporting/report_runs')
export class ReportRunsController {
  constructor(private readonly runs: ReportRunsService) {}

  @Post()
  @HttpCode(200)
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({
    summary: 'Run a report',
    description:
      'Answers a `pending` run at once; the CSV is produced in the background from the ledger entries ' +
      '(`meter_usage.itemized.1`: from the meter events) ' +
      '(`report_run.succeeded` or `report_run.failed` follows) and `result` names its file. Report types, ' +
      'columns and their meaning: docs/REPORTS.md.',
  })
  @ApiOkResponse({ type: ReportRunDto })
  @ApiErrors(Errors.E2000, ReportingErrors.E7900, ReportingErrors.E7901, ReportingErrors.E7902, ReportingErrors.E7903)
  create(@CurrentPrincipal() principal: Principal, @Body() dto: CreateReportRunDto) {
    return this.runs.create(principal, dto);
  }

  @Get()
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'List report runs', description: 'Newest first.' })
  @ApiListQuery(REPORT_RUN_LIST)
  @ApiListResponse(ReportRunDto)
  @ApiErrors(Errors.E2004)
  @ReadReplicaTolerant()
  list(@CurrentPrincipal() principal: Principal, @ListQueryParams(REPORT_RUN_LIST) query: ListQuery) {
    return this.runs.list(principal, query);
  }

  @Get(':id')
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'Retrieve a report run' })
  @ApiOkResponse({ type: ReportRunDto })
  @ApiErrors(Errors.E4004)
  retrieve(@CurrentPrincipal() principal: Principal, @Param('id', IdOf('report run')) id: string) {
    return this.runs.retrieve(principal, id);
  }
}
