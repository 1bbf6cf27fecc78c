import { Body, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Principal } from '../../common/context/principal.js';
import { AppError } from '../../common/errors/app-error.js';
import { Errors } from '../../common/errors/error-catalog.js';
import { ApiErrors, Auth, CurrentPrincipal, WalletController } from '../../common/http/decorators.js';
import { IdParam } from '../../common/http/id-param.pipe.js';
import { ReadReplicaTolerant } from '../../common/http/read-replica-tolerant.js';
import { ApiListQuery, ApiListResponse, ListQueryParams, type ListQuery } from '../../common/list/index.js';
import { EventDto } from './dto/event.dto.js';
import { ResendEventDto, WebhookAttemptDto } from './dto/webhook-endpoint.dto.js';
import { EventErrors } from './events.errors.js';
import { ATTEMPT_LIST, EVENT_LIST, EventsService } from './events.service.js';

const EVENT_ID = new IdParam((id) => new AppError(Errors.E4004, `No event with id "${id}".`));

@WalletController('events')
export class EventsController {
  constructor(private readonly events: EventsService) {}

  @Get()
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: "List the application's events, newest first (filter[type], filter[created][gte])" })
  @ApiListQuery(EVENT_LIST)
  @ApiListResponse(EventDto)
  @ApiErrors(Errors.E2004)
  @ReadReplicaTolerant()
  list(@CurrentPrincipal() principal: Principal, @ListQueryParams(EVENT_LIST) query: ListQuery) {
    return this.events.list(principal, query);
  }

  @Get(':id')
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'Retrieve an event (components.schemas.Event_<type> types each payload)' })
  @ApiOkResponse({ type: EventDto })
  @ApiErrors(Errors.E4004)
  retrieve(@CurrentPrincipal() principal: Principal, @Param('id', EVENT_ID) id: string) {
    return this.events.retrieve(principal, id);
  }

  @Get(':id/deliveries')
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'The delivery attempts of an event, to every endpoint' })
  @ApiListQuery(ATTEMPT_LIST)
  @ApiListResponse(WebhookAttemptDto)
  @ApiErrors(Errors.E2004, Errors.E4004)
  deliveries(
    @CurrentPrincipal() principal: Principal,
    @Param('id', EVENT_ID) id: string,
    @ListQueryParams(ATTEMPT_LIST) query: ListQuery,
  ) {
    return this.events.attempts(principal, id, query);
  }

  @Post(':id/resend')
  @HttpCode(200)
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'Send an event again now (same webhook-id), to one endpoint or every matching one' })
  @ApiOkResponse({ type: EventDto })
  @ApiErrors(Errors.E2000, Errors.E4004, EventErrors.E5109)
  resend(@CurrentPrincipal() principal: Principal, @Param('id', EVENT_ID) id: string, @Body() dto: ResendEventDto) {
    return this.events.resend(principal, id, dto);
  }
}
