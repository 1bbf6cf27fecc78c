import { Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Principal } from '../../../common/context/principal.js';
import { Errors } from '../../../common/errors/error-catalog.js';
import { ApiErrors, Auth, CurrentPrincipal, WalletController } from '../../../common/http/decorators.js';
import { IdOf } from '../../../common/http/id-param.pipe.js';
import { CheckoutErrors as E } from '../checkout.errors.js';
import { PaymentMethodDto } from '../dto/charge.dto.js';
import { PaymentMethodsService } from './payment-methods.service.js';

@WalletController('payment_methods')
export class PaymentMethodsController {
  constructor(private readonly paymentMethods: PaymentMethodsService) {}

  @Get(':id')
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'Retrieve a saved payment method' })
  @ApiOkResponse({ type: PaymentMethodDto })
  @ApiErrors(Errors.E4004)
  retrieve(@CurrentPrincipal() principal: Principal, @Param('id', IdOf('payment method')) id: string) {
    return this.paymentMethods.retrieve(principal, id);
  }

  @Post(':id/detach')
  @HttpCode(200)
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({
    summary: 'Detach a saved payment method from its customer',
    description:
      'Removed at the provider too; it can no longer be charged, and stops being its customer’s default payment method.',
  })
  @ApiOkResponse({ type: PaymentMethodDto })
  @ApiErrors(Errors.E4004, E.E7031, Errors.E5002)
  detach(@CurrentPrincipal() principal: Principal, @Param('id', IdOf('payment method')) id: string) {
    return this.paymentMethods.detach(principal, id);
  }
}
