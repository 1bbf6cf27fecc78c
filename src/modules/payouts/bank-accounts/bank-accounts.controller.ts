import { Body, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Principal } from '../../../common/context/principal.js';
import { AppError } from '../../../common/errors/app-error.js';
import { Errors } from '../../../common/errors/error-catalog.js';
import {
  ApiErrors,
  Auth,
  CurrentPrincipal,
  SessionPurposes,
  WalletController,
} from '../../../common/http/decorators.js';
import { IdParam } from '../../../common/http/id-param.pipe.js';
import { ApiListQuery, ApiListResponse, ListQueryParams, type ListQuery } from '../../../common/list/index.js';
import { BankAccountCreationDto, BankAccountDto } from '../dto/bank-account.dto.js';
import { CreateBankAccountDto } from '../dto/create-bank-account.dto.js';
import { PayoutErrors } from '../payouts.errors.js';
import { BANK_ACCOUNT_INTENT_PURPOSE, BANK_ACCOUNT_LIST, BankAccountsService } from './bank-accounts.service.js';

const P = PayoutErrors;
const bankAccountId = new IdParam(
  (id) => new AppError(Errors.E4004, `No bank account with id "${id}" in this country.`),
);

@WalletController('bank_accounts')
export class BankAccountsController {
  constructor(private readonly bankAccounts: BankAccountsService) {}

  /** The body is validated by the service: E6422 on `customer_id` comes before any shape error. */
  @Post()
  @HttpCode(200)
  @Auth('machine', 'user', 'superuser', 'none')
  @SessionPurposes(BANK_ACCOUNT_INTENT_PURPOSE)
  @ApiOperation({
    summary: 'Create a bank account',
    description:
      "For your own account (a payout destination, also sent to the country's transfer provider when one is enabled) " +
      'or a KYB-verified connected account (reference only). A bank account intent session may create one bank account for its account.',
  })
  @ApiBody({ type: CreateBankAccountDto })
  @ApiOkResponse({ type: BankAccountCreationDto })
  @ApiErrors(
    Errors.E1304,
    Errors.E2000,
    Errors.E6422,
    P.E6101,
    P.E6102,
    P.E6103,
    P.E6104,
    P.E6105,
    P.E6106,
    P.E6107,
    P.E6108,
    P.E6109,
    P.E6202,
  )
  create(@CurrentPrincipal() principal: Principal, @Body() body: Record<string, unknown>) {
    return this.bankAccounts.create(principal, body);
  }

  @Get(':id')
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'Retrieve a bank account of the application country (numbers masked)' })
  @ApiOkResponse({ type: BankAccountDto })
  @ApiErrors(Errors.E4004)
  retrieve(@CurrentPrincipal() principal: Principal, @Param('id', bankAccountId) id: string) {
    return this.bankAccounts.retrieve(principal, id);
  }

  @Get()
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'List the bank accounts of the application country (numbers masked)' })
  @ApiListQuery(BANK_ACCOUNT_LIST)
  @ApiListResponse(BankAccountDto)
  @ApiErrors(Errors.E2004)
  list(@CurrentPrincipal() principal: Principal, @ListQueryParams(BANK_ACCOUNT_LIST) query: ListQuery) {
    return this.bankAccounts.list(principal, query);
  }
}
