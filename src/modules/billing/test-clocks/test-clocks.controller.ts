import { Body, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Principal } from '../../../common/context/principal.js';
import { Errors } from '../../../common/errors/error-catalog.js';
import { ApiErrors, Auth, CurrentPrincipal, WalletController } from '../../../common/http/decorators.js';
import { IdOf } from '../../../common/http/id-param.pipe.js';
import { TestModeOnly } from '../../../common/http/test-mode-only.js';
import { ApiListQuery, ApiListResponse, ListQueryParams, type ListQuery } from '../../../common/list/index.js';
import { AdvanceTestClockDto, CreateTestClockDto, DeletedTestClockDto, TestClockDto } from './dto/test-clock.dto.js';
import { TestClockErrors } from './test-clocks.errors.js';
import { TEST_CLOCK_LIST, TestClocksService } from './test-clocks.service.js';

@WalletController('test_helpers/test_clocks', { tag: 'test helpers' })
@TestModeOnly()
export class TestClocksController {
  constructor(private readonly clocks: TestClocksService) {}

  @Post()
  @HttpCode(200)
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({
    summary: 'Test mode only: create a test clock',
    description: 'Customers created with `test_clock` live at its `frozen_time`: their trials and periods follow it.',
  })
  @ApiOkResponse({ type: TestClockDto })
  @ApiErrors(Errors.E2000, Errors.E4040)
  create(@CurrentPrincipal() principal: Principal, @Body() dto: CreateTestClockDto) {
    return this.clocks.create(principal, dto);
  }

  @Get()
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'Test mode only: list test clocks' })
  @ApiListQuery(TEST_CLOCK_LIST)
  @ApiListResponse(TestClockDto)
  @ApiErrors(Errors.E2004, Errors.E4040)
  list(@CurrentPrincipal() principal: Principal, @ListQueryParams(TEST_CLOCK_LIST) query: ListQuery) {
    return this.clocks.list(principal, query);
  }

  @Get(':id')
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'Test mode only: retrieve a test clock' })
  @ApiOkResponse({ type: TestClockDto })
  @ApiErrors(Errors.E4004, Errors.E4040)
  retrieve(@CurrentPrincipal() principal: Principal, @Param('id', IdOf('test clock')) id: string) {
    return this.clocks.retrieve(principal, id);
  }

  @Delete(':id')
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({
    summary: 'Test mode only: delete a test clock',
    description:
      "Cancels its customers' subscriptions (as of its frozen_time) and detaches its customers, which then live " +
      'on the service clock. Nothing else is deleted.',
  })
  @ApiOkResponse({ type: DeletedTestClockDto })
  @ApiErrors(Errors.E4004, Errors.E4040)
  delete(@CurrentPrincipal() principal: Principal, @Param('id', IdOf('test clock')) id: string) {
    return this.clocks.delete(principal, id);
  }

  @Post(':id/advance')
  @HttpCode(200)
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({
    summary: 'Test mode only: advance a test clock',
    description:
      'Answers `status: advancing` at once; a background job then moves every trial end, trial_will_end notice, ' +
      'period end and expiry of its customers due up to `frozen_time`, in time order, and marks the clock `ready`. ' +
      'Forward only, at most two years per advance.',
  })
  @ApiOkResponse({ type: TestClockDto })
  @ApiErrors(
    Errors.E2000,
    Errors.E4004,
    Errors.E4040,
    TestClockErrors.E7700,
    TestClockErrors.E7701,
    TestClockErrors.E7702,
  )
  advance(
    @CurrentPrincipal() principal: Principal,
    @Param('id', IdOf('test clock')) id: string,
    @Body() dto: AdvanceTestClockDto,
  ) {
    return this.clocks.advance(principal, id, dto);
  }
}
