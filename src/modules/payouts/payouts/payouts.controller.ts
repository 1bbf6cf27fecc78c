import { Body, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Principal } from '../../../common/context/principal.js';
import { AppError } from '../../../common/errors/app-error.js';
import { Errors } from '../../../common/errors/error-catalog.js';
import { ApiErrors, Auth, CurrentPrincipal, WalletController } from '../../../common/http/decorators.js';
import { IdParam } from '../../../common/http/id-param.pipe.js';
import { TestModeOnly } from '../../../common/http/test-mode-only.js';
import { ApiListQuery, ApiListResponse, ListQueryParams, type ListQuery } from '../../../common/list/index.js';
import { CreatePayoutDto, PayoutDto, PayoutScheduleDto, PayoutScheduleInputDto } from '../dto/payout.dto.js';
import { PayoutErrors as P } from '../payouts.errors.js';
import { PayoutLifecycleService } from './payout-lifecycle.service.js';
import { PayoutSchedulesService } from './payout-schedules.service.js';
import { PAYOUT_LIST, PayoutsService } from './payouts.service.js';

const PAYOUT_ID = new IdParam((id) => new AppError(Errors.E4004, `No payout with id "${id}".`));
const ACCOUNT_ID = new IdParam((id) => new AppError(P.E6101, `No account with id "${id}".`));

@WalletController('payouts')
export class PayoutsController {
  constructor(
    private readonly payouts: PayoutsService,
    private readonly lifecycle: PayoutLifecycleService,
  ) {}

  @Post()
  @HttpCode(200)
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({
    summary: 'Create a payout',
    description:
      "Sends `amount` from the account's available balance (the application's own account, or a KYB-verified connected " +
      'account named by `account`) to one of its bank accounts. The amount moves to `payouts_in_transit` at once; the ' +
      'payout is `in_transit` when the transfer provider accepts it, then `paid` or `failed` (the money returns to the ' +
      'available balance). Send an `Idempotency-Key` to retry safely.',
  })
  @ApiOkResponse({ type: PayoutDto })
  @ApiErrors(Errors.E1304, Errors.E2000, P.E6101, P.E6301, P.E6302, P.E6303, P.E6304, P.E6306)
  create(@CurrentPrincipal() principal: Principal, @Body() dto: CreatePayoutDto) {
    return this.payouts.create(principal, dto);
  }

  @Get()
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({
    summary: 'List payouts',
    description: 'Newest first; filter by `status`, `destination`, `account`, `created_at` ranges and more.',
  })
  @ApiListQuery(PAYOUT_LIST)
  @ApiListResponse(PayoutDto)
  @ApiErrors(Errors.E2004)
  list(@CurrentPrincipal() principal: Principal, @ListQueryParams(PAYOUT_LIST) query: ListQuery) {
    return this.payouts.list(principal, query);
  }

  @Get(':id')
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'Retrieve a payout' })
  @ApiOkResponse({ type: PayoutDto })
  @ApiErrors(Errors.E4004)
  retrieve(@CurrentPrincipal() principal: Principal, @Param('id', PAYOUT_ID) id: string) {
    return this.payouts.retrieve(principal, id);
  }

  @Post(':id/cancel')
  @HttpCode(200)
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({
    summary: 'Cancel a pending payout',
    description: 'Only a `pending` payout (not yet sent to the bank) can be canceled; its amount returns to available.',
  })
  @ApiOkResponse({ type: PayoutDto })
  @ApiErrors(Errors.E4004, P.E6305)
  cancel(@CurrentPrincipal() principal: Principal, @Param('id', PAYOUT_ID) id: string) {
    return this.lifecycle.cancel(principal, id);
  }
}

@WalletController('payout_schedules')
export class PayoutSchedulesController {
  constructor(private readonly schedules: PayoutSchedulesService) {}

  @Post()
  @HttpCode(200)
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({
    summary: "Set an account's automatic payout schedule",
    description:
      '`manual` (the default: no automatic payouts), `daily` or `weekly` (on `weekly_anchor`, UTC). A run pays out the ' +
      'whole available balance in `currency` to `destination` when it is at least `minimum_amount`, once per period.',
  })
  @ApiOkResponse({ type: PayoutScheduleDto })
  @ApiErrors(Errors.E1304, Errors.E2000, P.E6101, P.E6302, P.E6303, P.E6304, P.E6306, P.E6307)
  set(@CurrentPrincipal() principal: Principal, @Body() dto: PayoutScheduleInputDto) {
    return this.schedules.set(principal, dto);
  }

  @Get(':account')
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: "Retrieve an account's payout schedule (`manual` when none was set)" })
  @ApiOkResponse({ type: PayoutScheduleDto })
  @ApiErrors(P.E6101)
  retrieve(@CurrentPrincipal() principal: Principal, @Param('account', ACCOUNT_ID) account: string) {
    return this.schedules.get(principal, account);
  }
}

@WalletController('test_helpers/payouts', { tag: 'test helpers' })
@TestModeOnly()
export class PayoutTestHelpersController {
  constructor(private readonly lifecycle: PayoutLifecycleService) {}

  @Post(':id/paid')
  @HttpCode(200)
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'Test mode only: the sandbox bank pays a payout in transit' })
  @ApiOkResponse({ type: PayoutDto })
  @ApiErrors(Errors.E4004, Errors.E4040, P.E6305)
  paid(@CurrentPrincipal() principal: Principal, @Param('id', PAYOUT_ID) id: string) {
    return this.lifecycle.settleForTest(principal, id, 'paid');
  }

  @Post(':id/fail')
  @HttpCode(200)
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({
    summary: 'Test mode only: the sandbox bank fails a payout in transit (could_not_process)',
  })
  @ApiOkResponse({ type: PayoutDto })
  @ApiErrors(Errors.E4004, Errors.E4040, P.E6305)
  fail(@CurrentPrincipal() principal: Principal, @Param('id', PAYOUT_ID) id: string) {
    return this.lifecycle.settleForTest(principal, id, 'failed');
  }
}
