import { TestModeOnly } from '../../common/http/test-mode-only.js';
import { Body, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Principal } from '../../common/context/principal.js';
import { AppError } from '../../common/errors/app-error.js';
import { Errors } from '../../common/errors/error-catalog.js';
import { ApiErrors, Auth, CurrentPrincipal, WalletController } from '../../common/http/decorators.js';
import { IdParam } from '../../common/http/id-param.pipe.js';
import { ApiListQuery, ApiListResponse, ListQueryParams, type ListQuery } from '../../common/list/index.js';
import { AccountErrors } from './accounts.errors.js';
import { ACCOUNT_LIST, AccountsService } from './accounts.service.js';
import { AccountDto } from './dto/account.dto.js';
import { CreateAccountDto, RejectAccountDto } from './dto/create-account.dto.js';

const accountId = new IdParam((id) => new AppError(Errors.E4004, `No account with id "${id}".`));

@WalletController('accounts')
export class AccountsController {
  constructor(private readonly accounts: AccountsService) {}

  @Post()
  @HttpCode(200)
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'Create a connected account (KYB pending until verified)' })
  @ApiOkResponse({ type: AccountDto })
  @ApiErrors(Errors.E2000, AccountErrors.E6002)
  create(@CurrentPrincipal() principal: Principal, @Body() dto: CreateAccountDto) {
    return this.accounts.create(principal, dto);
  }

  @Get(':id')
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'Retrieve an account (own or connected)' })
  @ApiOkResponse({ type: AccountDto })
  @ApiErrors(Errors.E4004)
  retrieve(@CurrentPrincipal() principal: Principal, @Param('id', accountId) id: string) {
    return this.accounts.retrieve(principal, id);
  }

  @Get()
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: "List the application's accounts (its own and its connected accounts)" })
  @ApiListQuery(ACCOUNT_LIST)
  @ApiListResponse(AccountDto)
  @ApiErrors(Errors.E2004)
  list(@CurrentPrincipal() principal: Principal, @ListQueryParams(ACCOUNT_LIST) query: ListQuery) {
    return this.accounts.list(principal, query);
  }
}

@WalletController('test_helpers/accounts', { tag: 'test helpers' })
@TestModeOnly()
export class AccountTestHelpersController {
  constructor(private readonly accounts: AccountsService) {}

  @Post(':id/verify')
  @HttpCode(200)
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: "Test mode only: pass a connected account's KYB review" })
  @ApiOkResponse({ type: AccountDto })
  @ApiErrors(Errors.E4004, Errors.E4040)
  verify(@CurrentPrincipal() principal: Principal, @Param('id', accountId) id: string) {
    return this.accounts.verifyForTest(principal, id);
  }

  @Post(':id/reject')
  @HttpCode(200)
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: "Test mode only: fail a connected account's KYB review" })
  @ApiOkResponse({ type: AccountDto })
  @ApiErrors(Errors.E2000, Errors.E4004, Errors.E4040, AccountErrors.E6001)
  reject(@CurrentPrincipal() principal: Principal, @Param('id', accountId) id: string, @Body() dto: RejectAccountDto) {
    return this.accounts.rejectForTest(principal, id, dto.reason);
  }
}
