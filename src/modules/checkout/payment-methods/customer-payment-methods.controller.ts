import { Get, Param } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import type { Principal } from '../../../common/context/principal.js';
import { Errors } from '../../../common/errors/error-catalog.js';
import { ApiErrors, Auth, CurrentPrincipal, WalletController } from '../../../common/http/decorators.js';
import { IdOf } from '../../../common/http/id-param.pipe.js';
import { ApiListQuery, ApiListResponse, ListQueryParams, type ListQuery } from '../../../common/list/index.js';
import { PaymentMethodDto } from '../dto/charge.dto.js';
import { PAYMENT_METHOD_LIST, PaymentMethodsService } from './payment-methods.service.js';

@WalletController('customers')
export class CustomerPaymentMethodsController {
  constructor(private readonly paymentMethods: PaymentMethodsService) {}

  @Get(':id/payment_methods')
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: "List a customer's saved payment methods (attached and detached)" })
  @ApiListQuery(PAYMENT_METHOD_LIST)
  @ApiListResponse(PaymentMethodDto)
  @ApiErrors(Errors.E2004, Errors.E4004)
  list(
    @CurrentPrincipal() principal: Principal,
    @Param('id', IdOf('customer')) id: string,
    @ListQueryParams(PAYMENT_METHOD_LIST) query: ListQuery,
  ) {
    return this.paymentMethods.list(principal, id, query);
  }
}
