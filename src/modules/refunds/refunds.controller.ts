import { Body, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Principal } from '../../common/context/principal.js';
import { Errors } from '../../common/errors/error-catalog.js';
import { ApiErrors, Auth, CurrentPrincipal, WalletController } from '../../common/http/decorators.js';
import { IdOf } from '../../common/http/id-param.pipe.js';
import { TestModeOnly } from '../../common/http/test-mode-only.js';
import { ApiListQuery, ApiListResponse, ListQueryParams, type ListQuery } from '../../common/list/index.js';
import { CheckoutErrors } from '../checkout/index.js';
import { CreateRefundDto, RefundDto } from './dto/refund.dto.js';
import { RefundErrors } from './refunds.errors.js';
import { REFUND_LIST, RefundsService } from './refunds.service.js';

@WalletController('refunds')
export class RefundsController {
  constructor(private readonly refunds: RefundsService) {}

  @Post()
  @HttpCode(200)
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({
    summary: 'Refund a charge, in full or in part',
    description:
      'Refunds `amount` (default: everything left) of a succeeded charge through the provider that made it. ' +
      'The merchant-side balance is debited at once (available first, then held funds); fees are not returned. ' +
      'Card refunds answer `succeeded` (or `failed`); PromptPay refunds answer `pending` and settle later. ' +
      'Sandbox: a refund of exactly 4004 fails with `refund_declined`. Idempotent with `Idempotency-Key`.',
  })
  @ApiOkResponse({ type: RefundDto })
  @ApiErrors(
    Errors.E2000,
    Errors.E4004,
    CheckoutErrors.E7404,
    CheckoutErrors.E7405,
    CheckoutErrors.E7406,
    RefundErrors.E7501,
    RefundErrors.E7502,
    RefundErrors.E7503,
    RefundErrors.E7504,
    RefundErrors.E7505,
    RefundErrors.E7506,
  )
  create(@CurrentPrincipal() principal: Principal, @Body() dto: CreateRefundDto) {
    return this.refunds.create(principal, dto);
  }

  @Get()
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({
    summary: 'List refunds',
    description: 'Newest first; filter by `filter[status]`, `filter[charge_id]` and `created_at` ranges.',
  })
  @ApiListQuery(REFUND_LIST)
  @ApiListResponse(RefundDto)
  @ApiErrors(Errors.E2004)
  list(@CurrentPrincipal() principal: Principal, @ListQueryParams(REFUND_LIST) query: ListQuery) {
    return this.refunds.list(principal, query);
  }

  @Get(':id')
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'Retrieve a refund' })
  @ApiOkResponse({ type: RefundDto })
  @ApiErrors(Errors.E4004)
  retrieve(@CurrentPrincipal() principal: Principal, @Param('id', IdOf('refund')) id: string) {
    return this.refunds.retrieve(principal, id);
  }
}

@WalletController('test_helpers/refunds', { tag: 'test helpers' })
@TestModeOnly()
export class RefundTestHelpersController {
  constructor(private readonly refunds: RefundsService) {}

  @Post(':id/settle')
  @HttpCode(200)
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({
    summary: 'Test mode only: the provider settles a pending (PromptPay) refund',
    description:
      'Applies the sandbox provider’s outcome of the refund (`succeeded`); a refund no longer pending is E4090.',
  })
  @ApiOkResponse({ type: RefundDto })
  @ApiErrors(Errors.E4004, Errors.E4040, Errors.E4090)
  settle(@CurrentPrincipal() principal: Principal, @Param('id', IdOf('refund')) id: string) {
    return this.refunds.settleForTest(principal, id);
  }
}
