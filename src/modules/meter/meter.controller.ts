import { Body, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Principal } from '../../common/context/principal.js';
import { AppError } from '../../common/errors/app-error.js';
import { Errors } from '../../common/errors/error-catalog.js';
import { ApiErrors, Auth, CurrentPrincipal, WalletController } from '../../common/http/decorators.js';
import { ErrorObjectDto } from '../../common/http/error-object.dto.js';
import { IdParam } from '../../common/http/id-param.pipe.js';
import { ApiListQuery, ApiListResponse, ListQueryParams, type ListQuery } from '../../common/list/index.js';
import {
  CreateMeterDto,
  MeterDto,
  MeterEventSummaryListDto,
  SummaryQueryDto,
  UpdateMeterDto,
} from './dto/meter.dto.js';
import {
  CreateMeterEventDto,
  CreationResponseDto,
  MeterEventBatchDto,
  MeterEventBatchResponseDto,
  MeterEventDto,
} from './dto/meter-event.dto.js';
import { MeterEventsService } from './meter-events.service.js';
import { MeterSummariesService } from './meter-summaries.service.js';
import { MeterErrors as E } from './meter.errors.js';
import { METER_LIST, MetersService } from './meters.service.js';

const meterId = new IdParam((id) => new AppError(Errors.E4004, `No meter with id "${id}".`));
const meterEventId = new IdParam((id) => new AppError(Errors.E4004, `No meter event with id "${id}".`));

const EVENT_ERRORS = [
  E.E8001,
  E.E8002,
  E.E8003,
  E.E8004,
  E.E8005,
  E.E8006,
  E.E8007,
  E.E8008,
  E.E8009,
  E.E8030,
  E.E8031,
  Errors.E2000,
];

@WalletController('meters')
export class MetersController {
  constructor(
    private readonly meters: MetersService,
    private readonly summaries: MeterSummariesService,
  ) {}

  @Post()
  @HttpCode(200)
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'Create a meter' })
  @ApiOkResponse({ type: MeterDto })
  @ApiErrors(Errors.E2000, E.E8010)
  create(@CurrentPrincipal() principal: Principal, @Body() dto: CreateMeterDto) {
    return this.meters.create(principal, dto);
  }

  @Get(':id')
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'Retrieve a meter' })
  @ApiOkResponse({ type: MeterDto })
  @ApiErrors(Errors.E4004)
  retrieve(@CurrentPrincipal() principal: Principal, @Param('id', meterId) id: string) {
    return this.meters.retrieve(principal, id);
  }

  @Get()
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'List meters' })
  @ApiListQuery(METER_LIST)
  @ApiListResponse(MeterDto)
  @ApiErrors(Errors.E2004)
  list(@CurrentPrincipal() principal: Principal, @ListQueryParams(METER_LIST) query: ListQuery) {
    return this.meters.list(principal, query);
  }

  @Post(':id')
  @HttpCode(200)
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({
    summary: 'Update a meter',
    description: 'display_name and enforce_credit; the event name, payload key and formula never change.',
  })
  @ApiOkResponse({ type: MeterDto })
  @ApiErrors(Errors.E2000, Errors.E4004)
  update(@CurrentPrincipal() principal: Principal, @Param('id', meterId) id: string, @Body() dto: UpdateMeterDto) {
    return this.meters.update(principal, id, dto);
  }

  @Post(':id/deactivate')
  @HttpCode(200)
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'Deactivate a meter', description: 'Events for an inactive meter are refused with E8002.' })
  @ApiOkResponse({ type: MeterDto })
  @ApiErrors(Errors.E4004)
  deactivate(@CurrentPrincipal() principal: Principal, @Param('id', meterId) id: string) {
    return this.meters.deactivate(principal, id);
  }

  @Get(':id/event_summaries')
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: "A customer's usage in hour or day windows, aggregated by the meter's formula" })
  @ApiOkResponse({ type: MeterEventSummaryListDto })
  @ApiErrors(Errors.E2004, Errors.E4004)
  eventSummaries(
    @CurrentPrincipal() principal: Principal,
    @Param('id', meterId) id: string,
    @Query() query: SummaryQueryDto,
  ) {
    return this.summaries.summarize(principal, id, query);
  }
}

@WalletController('meter_events')
export class MeterEventsController {
  constructor(private readonly events: MeterEventsService) {}

  @Post()
  @HttpCode(200)
  @Auth('machine', 'superuser')
  @ApiOperation({
    summary: 'Create a meter event',
    description:
      "Answered once the event is durably stored. A repeated identifier returns the original event's response. Forwarding to the billing provider happens afterwards.",
  })
  @ApiOkResponse({ type: CreationResponseDto })
  @ApiErrors(...EVENT_ERRORS)
  create(@CurrentPrincipal() principal: Principal, @Body() dto: CreateMeterEventDto) {
    return this.events.create(principal, dto);
  }

  @Post('batch')
  @HttpCode(200)
  @Auth('machine', 'superuser')
  @ApiOperation({
    summary: 'Create up to 100 meter events',
    description:
      'Each event is validated and answered on its own, in order: a creation response or an error object. Valid events are stored in one statement.',
  })
  @ApiExtraModels(CreationResponseDto, ErrorObjectDto)
  @ApiOkResponse({ type: MeterEventBatchResponseDto })
  @ApiErrors(E.E8011, Errors.E2000)
  createBatch(@CurrentPrincipal() principal: Principal, @Body() dto: MeterEventBatchDto) {
    return this.events.createBatch(principal, dto.events).then((data) => ({ object: 'list' as const, data }));
  }

  @Get(':id')
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'Retrieve a meter event with its delivery status' })
  @ApiOkResponse({ type: MeterEventDto })
  @ApiErrors(Errors.E4004)
  retrieve(@CurrentPrincipal() principal: Principal, @Param('id', meterEventId) id: string) {
    return this.events.retrieve(principal, id);
  }
}
