import { Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { Errors } from '../../common/errors/error-catalog.js';
import type { Principal } from '../../common/context/principal.js';
import { ApiErrors, Auth, CurrentPrincipal, WalletController } from '../../common/http/decorators.js';
import { IdOf } from '../../common/http/id-param.pipe.js';
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

@WalletController('balances')
export class BalancesController {
  constructor(private readonly balances: BalancesService) {}

  @Get()
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'List balances' })
  @ApiListQuery(BALANCE_LIST)
  @ApiListResponse(BalanceDto)
  @ApiErrors(Errors.E2004)
  list(@CurrentPrincipal() principal: Principal, @ListQueryParams(BALANCE_LIST) query: ListQuery) {
    return this.balances.list(principal, query);
  }

  @Get(':id')
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'Retrieve a balance' })
  @ApiOkResponse({ type: BalanceDto })
  @ApiErrors(Errors.E4004)
  retrieve(@CurrentPrincipal() principal: Principal, @Param('id', IdOf('balance')) id: string) {
    return this.balances.retrieve(principal, id);
  }
}
