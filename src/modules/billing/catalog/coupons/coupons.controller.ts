import { Body, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Principal } from '../../../../common/context/principal.js';
import { Errors } from '../../../../common/errors/error-catalog.js';
import { ApiErrors, Auth, CurrentPrincipal, WalletController } from '../../../../common/http/decorators.js';
import { IdOf } from '../../../../common/http/id-param.pipe.js';
import { ApiListQuery, ApiListResponse, ListQueryParams, type ListQuery } from '../../../../common/list/index.js';
import { BillingErrors as E } from '../../billing.errors.js';
import { CouponDto, CreateCouponDto, DeletedCouponDto, UpdateCouponDto } from './coupon.dto.js';
import { COUPON_LIST, CouponsService } from './coupons.service.js';

@WalletController('coupons', { country: false })
export class CouponsController {
  constructor(private readonly coupons: CouponsService) {}

  @Post()
  @HttpCode(200)
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'Create a coupon', description: 'percent_off, or amount_off with currency.' })
  // One whole example: the fields' own examples name percent_off and amount_off, which exclude each other.
  @ApiBody({
    type: CreateCouponDto,
    examples: {
      percent_off: {
        summary: '10% off the first invoice',
        value: { name: 'Launch 10%', percent_off: 10, duration: 'once' },
      },
      amount_off: {
        summary: 'THB 50.00 off for 3 months',
        value: { name: 'THB 50 off', amount_off: 5000, currency: 'THB', duration: 'repeating', duration_in_months: 3 },
      },
    },
  })
  @ApiOkResponse({ type: CouponDto })
  @ApiErrors(Errors.E2000, E.E7620, E.E7621, E.E7622, E.E7623, E.E7624)
  create(@CurrentPrincipal() principal: Principal, @Body() dto: CreateCouponDto) {
    return this.coupons.create(principal, dto);
  }

  @Get(':id')
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'Retrieve a coupon' })
  @ApiOkResponse({ type: CouponDto })
  @ApiErrors(Errors.E4004)
  retrieve(@CurrentPrincipal() principal: Principal, @Param('id', IdOf('coupon')) id: string) {
    return this.coupons.retrieve(principal, id);
  }

  @Post(':id')
  @HttpCode(200)
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'Update a coupon', description: 'name and metadata only (E7626).' })
  @ApiOkResponse({ type: CouponDto })
  @ApiErrors(Errors.E2000, Errors.E4004, E.E7626)
  update(
    @CurrentPrincipal() principal: Principal,
    @Param('id', IdOf('coupon')) id: string,
    @Body() dto: UpdateCouponDto,
  ) {
    return this.coupons.update(principal, id, dto);
  }

  @Delete(':id')
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({
    summary: 'Delete a coupon',
    description: 'It (and its promotion codes) can no longer be redeemed; discounts already given stay.',
  })
  @ApiOkResponse({ type: DeletedCouponDto })
  @ApiErrors(Errors.E4004)
  delete(@CurrentPrincipal() principal: Principal, @Param('id', IdOf('coupon')) id: string) {
    return this.coupons.delete(principal, id);
  }

  @Get()
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'List coupons' })
  @ApiListQuery(COUPON_LIST)
  @ApiListResponse(CouponDto)
  @ApiErrors(Errors.E2004)
  list(@CurrentPrincipal() principal: Principal, @ListQueryParams(COUPON_LIST) query: ListQuery) {
    return this.coupons.list(principal, query);
  }
}
