import { HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Principal } from '../../common/context/principal.js';
import { Errors } from '../../common/errors/error-catalog.js';
import { ApiErrors, Auth, CurrentPrincipal, WalletController } from '../../common/http/decorators.js';
import { IdOf } from '../../common/http/id-param.pipe.js';
import { TestModeOnly } from '../../common/http/test-mode-only.js';
import { WebhookEndpointDto } from './dto/webhook-endpoint.dto.js';
import { EventErrors } from './events.errors.js';
import { WebhookEndpointsService } from './webhook-endpoints.service.js';

@WalletController('test_helpers/webhook_endpoints', { tag: 'test helpers' })
@TestModeOnly()
export class WebhookEndpointsTestHelpersController {
  constructor(private readonly endpoints: WebhookEndpointsService) {}

  @Post(':id/disable')
  @HttpCode(200)
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({
    summary: 'Test mode only: disable a webhook endpoint now, as 3 days of failed deliveries would',
    description:
      'The endpoint gets `status: disabled` with a `disabled_reason`, what it is still owed is canceled, and a ' +
      '`webhook_endpoint.disabled` event is recorded (disabling it yourself with `disabled: true` records none). ' +
      'Enable it again with `POST /webhook_endpoints/{id}` and `disabled: false`.',
  })
  @ApiOkResponse({ type: WebhookEndpointDto })
  @ApiErrors(Errors.E4004, Errors.E4040, EventErrors.E5111)
  disable(@CurrentPrincipal() principal: Principal, @Param('id', IdOf('webhook endpoint')) id: string) {
    return this.endpoints.disableForTest(principal, id);
  }
}
