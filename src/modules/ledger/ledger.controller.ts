import { Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiQuery } from '@nestjs/swagger';
import { Errors } from '../../common/errors/error-catalog.js';
import type { Principal } from '../../common/context/principal.js';
import { ApiErrors, Auth, CurrentPrincipal, WalletController } from '../../common/http/decorators.js';
import { IdOf } from '../../common/http/id-param.pipe.js';
import { ReadReplicaTolerant } from '../../common/http/read-replica-tolerant.js';
import { ApiListQuery, ApiListResponse, ListQueryParams, type ListQuery } from '../../common/list/index.js';
import { BALANCE_TRANSACTION_LIST, BalanceTransactionsService } from './balance-transactions.service.js';
import { BALANCE_LIST, BalancesService } from './balances.service.js';
import { BalanceDto, BalanceTransactionDto } from './dto/ledger.dto.js';

@WalletController('balance_transactions')
export class BalanceTransactionsController {
  constructor(private readonly entries: BalanceTransactionsService) {}

  @Get()
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'List balance transactions (ledger entries)' })
  @ApiListQuery(BALANCE_TRANSACTION_LIST)
  @ApiListResponse(BalanceTransactionDto)
  @ApiErrors(Errors.E2004)
  @ReadReplicaTolerant()
  list(@CurrentPrincipal() principal: Principal, @ListQueryParams(BALANCE_TRANSACTION_LIST) query: ListQuery) {
    return this.entries.list(principal, query);
  }

  @Get(':id')
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'Retrieve a balance transaction' })
  @ApiOkResponse({ type: BalanceTransactionDto })
  @ApiErrors(Errors.E4004)
  retrieve(@CurrentPrincipal() principal: Principal, @Param('id', IdOf('balance transaction')) id: string) {
    return this.entries.retrieve(principal, id);
  }
}

const AS_OF = 'An RFC 3339 moment, not in the future: the amounts as the ledger entries up to it sum them.';

@WalletController('balances')
export class BalancesController {
  constructor(private readonly balances: BalancesService) {}

  @Get()
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({
    summary: 'List balances',
    description: 'With `as_of`, the balances that existed at that moment, with their amounts as they were then.',
  })
  @ApiListQuery(BALANCE_LIST)
  @ApiListResponse(BalanceDto)
  @ApiErrors(Errors.E2004)
  list(
    @CurrentPrincipal() principal: Principal,
    @ListQueryParams(BALANCE_LIST) query: ListQuery,
    @Query('as_of') asOf?: string,
  ) {
    return this.balances.list(principal, query, asOf);
  }

  @Get(':id')
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({
    summary: 'Retrieve a balance',
    description: 'With `as_of`, its available, hold and total as they were at that moment (summed from the entries).',
  })
  @ApiQuery({ name: 'as_of', required: false, type: String, format: 'date-time', description: AS_OF })
  @ApiOkResponse({ type: BalanceDto })
  @ApiErrors(Errors.E2004, Errors.E4004)
  retrieve(
    @CurrentPrincipal() principal: Principal,
    @Param('id', IdOf('balance')) id: string,
    @Query('as_of') asOf?: string,
  ) {
    return this.balances.retrieve(principal, id, asOf);
  }
}
