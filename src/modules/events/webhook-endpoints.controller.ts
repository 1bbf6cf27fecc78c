import { Body, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Principal } from '../../common/context/principal.js';
import { AppError } from '../../common/errors/app-error.js';
import { Errors } from '../../common/errors/error-catalog.js';
import { ApiErrors, Auth, CurrentPrincipal, WalletController } from '../../common/http/decorators.js';
import { IdParam } from '../../common/http/id-param.pipe.js';
import { ApiListQuery, ApiListResponse, ListQueryParams, type ListQuery } from '../../common/list/index.js';
import {
  DeletedWebhookEndpointDto,
  CreateWebhookEndpointDto,
  UpdateWebhookEndpointDto,
  WebhookAttemptDto,
  WebhookEndpointDto,
} from './dto/webhook-endpoint.dto.js';
import { EventErrors } from './events.errors.js';
import { ATTEMPT_LIST } from './events.service.js';
import { WEBHOOK_ENDPOINT_LIST, WebhookEndpointsService } from './webhook-endpoints.service.js';

const ENDPOINT_ID = new IdParam((id) => new AppError(Errors.E4004, `No webhook endpoint with id "${id}".`));
const URL_ERRORS = [
  EventErrors.E5101,
  EventErrors.E5102,
  EventErrors.E5103,
  EventErrors.E5104,
  EventErrors.E5105,
  EventErrors.E5106,
  EventErrors.E5107,
  EventErrors.E5108,
];

@WalletController('webhook_endpoints')
export class WebhookEndpointsController {
  constructor(private readonly endpoints: WebhookEndpointsService) {}

  @Post()
  @HttpCode(200)
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'Create a webhook endpoint; the answer carries its signing secret, shown only here' })
  @ApiOkResponse({ type: WebhookEndpointDto })
  @ApiErrors(Errors.E2000, ...URL_ERRORS)
  create(@CurrentPrincipal() principal: Principal, @Body() dto: CreateWebhookEndpointDto) {
    return this.endpoints.create(principal, dto);
  }

  @Get()
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: "List the application's webhook endpoints" })
  @ApiListQuery(WEBHOOK_ENDPOINT_LIST)
  @ApiListResponse(WebhookEndpointDto)
  @ApiErrors(Errors.E2004)
  list(@CurrentPrincipal() principal: Principal, @ListQueryParams(WEBHOOK_ENDPOINT_LIST) query: ListQuery) {
    return this.endpoints.list(principal, query);
  }

  @Get(':id')
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'Retrieve a webhook endpoint (without its secret)' })
  @ApiOkResponse({ type: WebhookEndpointDto })
  @ApiErrors(Errors.E4004)
  retrieve(@CurrentPrincipal() principal: Principal, @Param('id', ENDPOINT_ID) id: string) {
    return this.endpoints.retrieve(principal, id);
  }

  @Post(':id')
  @HttpCode(200)
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'Update a webhook endpoint: url, enabled_events, description, metadata, disabled' })
  @ApiOkResponse({ type: WebhookEndpointDto })
  @ApiErrors(Errors.E2000, Errors.E4004, ...URL_ERRORS)
  update(
    @CurrentPrincipal() principal: Principal,
    @Param('id', ENDPOINT_ID) id: string,
    @Body() dto: UpdateWebhookEndpointDto,
  ) {
    return this.endpoints.update(principal, id, dto);
  }

  @Delete(':id')
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'Delete a webhook endpoint and what it is still owed' })
  @ApiOkResponse({ type: DeletedWebhookEndpointDto })
  @ApiErrors(Errors.E4004)
  remove(@CurrentPrincipal() principal: Principal, @Param('id', ENDPOINT_ID) id: string) {
    return this.endpoints.remove(principal, id);
  }

  @Post(':id/rotate_secret')
  @HttpCode(200)
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'A new signing secret (shown only here); the old one also signs for 24 hours' })
  @ApiOkResponse({ type: WebhookEndpointDto })
  @ApiErrors(Errors.E4004)
  rotateSecret(@CurrentPrincipal() principal: Principal, @Param('id', ENDPOINT_ID) id: string) {
    return this.endpoints.rotateSecret(principal, id);
  }

  @Get(':id/deliveries')
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'The delivery attempts to a webhook endpoint, newest first' })
  @ApiListQuery(ATTEMPT_LIST)
  @ApiListResponse(WebhookAttemptDto)
  @ApiErrors(Errors.E2004, Errors.E4004)
  deliveries(
    @CurrentPrincipal() principal: Principal,
    @Param('id', ENDPOINT_ID) id: string,
    @ListQueryParams(ATTEMPT_LIST) query: ListQuery,
  ) {
    return this.endpoints.attempts(principal, id, query);
  }
}
