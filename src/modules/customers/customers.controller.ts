import { Body, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Principal } from '../../common/context/principal.js';
import { AppError } from '../../common/errors/app-error.js';
import { Errors } from '../../common/errors/error-catalog.js';
import { ApiErrors, Auth, CurrentPrincipal, WalletController } from '../../common/http/decorators.js';
import { IdParam } from '../../common/http/id-param.pipe.js';
import { ApiListQuery, ApiListResponse, ListQueryParams, type ListQuery } from '../../common/list/index.js';
import { CUSTOMER_LIST, CustomersService } from './customers.service.js';
import { CreateCustomerDto } from './dto/create-customer.dto.js';
import { CustomerDto } from './dto/customer.dto.js';
import { UpdateCustomerDto } from './dto/update-customer.dto.js';

const customerId = new IdParam((id) => new AppError(Errors.E4004, `No customer with id "${id}".`));

@WalletController('customers')
export class CustomersController {
  constructor(private readonly customers: CustomersService) {}

  @Post()
  @HttpCode(200)
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'Create a customer' })
  @ApiOkResponse({ type: CustomerDto })
  @ApiErrors(Errors.E2000)
  create(@CurrentPrincipal() principal: Principal, @Body() dto: CreateCustomerDto) {
    return this.customers.create(principal, dto);
  }

  @Get(':id')
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'Retrieve a customer' })
  @ApiOkResponse({ type: CustomerDto })
  @ApiErrors(Errors.E4004)
  retrieve(@CurrentPrincipal() principal: Principal, @Param('id', customerId) id: string) {
    return this.customers.retrieve(principal, id);
  }

  @Post(':id')
  @HttpCode(200)
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({
    summary: 'Update a customer',
    description:
      '`invoice_settings.default_payment_method` must be an unexpired payment method attached to this customer (E7030, E7031, E7077); null clears it.',
  })
  @ApiOkResponse({ type: CustomerDto })
  @ApiErrors(Errors.E2000, Errors.E4004)
  update(
    @CurrentPrincipal() principal: Principal,
    @Param('id', customerId) id: string,
    @Body() dto: UpdateCustomerDto,
  ) {
    return this.customers.update(principal, id, dto);
  }

  @Get()
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'List customers' })
  @ApiListQuery(CUSTOMER_LIST)
  @ApiListResponse(CustomerDto)
  @ApiErrors(Errors.E2004)
  list(@CurrentPrincipal() principal: Principal, @ListQueryParams(CUSTOMER_LIST) query: ListQuery) {
    return this.customers.list(principal, query);
  }
}
