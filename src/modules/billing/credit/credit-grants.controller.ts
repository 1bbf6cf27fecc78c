import { Body, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Principal } from '../../../common/context/principal.js';
import { AppError } from '../../../common/errors/app-error.js';
import { Errors } from '../../../common/errors/error-catalog.js';
import { ApiErrors, Auth, CurrentPrincipal, WalletController } from '../../../common/http/decorators.js';
import { IdOf, IdParam } from '../../../common/http/id-param.pipe.js';
import { ApiListQuery, ApiListResponse, ListQueryParams, type ListQuery } from '../../../common/list/index.js';
import { CreditErrors as E } from './credit.errors.js';
import { CREDIT_GRANT_LIST, CreditGrantsService } from './credit-grants.service.js';
import { CreateCreditGrantDto, CreditGrantDto } from './dto/credit-grant.dto.js';

const customerId = new IdParam((id) => new AppError(E.E7880, `No customer with id "${id}".`).on('customer_id'));

@WalletController('customers/:customer_id/credit_grants', { tag: 'credit_grants', country: false })
export class CustomerCreditGrantsController {
  constructor(private readonly grants: CreditGrantsService) {}

  @Post()
  @HttpCode(200)
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({
    summary: 'Grant a customer prepaid credit',
    description:
      "The amount moves into the customer's credit balance in the ledger; invoices draw on it before charging, and meters with enforce_credit refuse usage past it.",
  })
  @ApiOkResponse({ type: CreditGrantDto })
  @ApiErrors(Errors.E2000, E.E7880, E.E7881, E.E7882, E.E7883)
  create(
    @CurrentPrincipal() principal: Principal,
    @Param('customer_id', customerId) id: string,
    @Body() dto: CreateCreditGrantDto,
  ) {
    return this.grants.create(principal, id, dto);
  }

  @Get()
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: "List a customer's credit grants" })
  @ApiListQuery(CREDIT_GRANT_LIST)
  @ApiListResponse(CreditGrantDto)
  @ApiErrors(Errors.E2004, E.E7880)
  list(
    @CurrentPrincipal() principal: Principal,
    @Param('customer_id', customerId) id: string,
    @ListQueryParams(CREDIT_GRANT_LIST) query: ListQuery,
  ) {
    return this.grants.list(principal, id, query);
  }
}

@WalletController('credit_grants', { country: false })
export class CreditGrantsController {
  constructor(private readonly grants: CreditGrantsService) {}

  @Get(':id')
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'Retrieve a credit grant' })
  @ApiOkResponse({ type: CreditGrantDto })
  @ApiErrors(Errors.E4004)
  retrieve(@CurrentPrincipal() principal: Principal, @Param('id', IdOf('credit grant')) id: string) {
    return this.grants.retrieve(principal, id);
  }

  @Post(':id/void')
  @HttpCode(200)
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({
    summary: 'Void a credit grant',
    description:
      'Its remaining credit leaves the customer (back to the funding account); usage already accepted stays billable.',
  })
  @ApiOkResponse({ type: CreditGrantDto })
  @ApiErrors(Errors.E4004, E.E7884)
  void(@CurrentPrincipal() principal: Principal, @Param('id', IdOf('credit grant')) id: string) {
    return this.grants.void(principal, id);
  }
}
