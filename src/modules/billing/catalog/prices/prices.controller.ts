import { Body, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { EXAMPLE_ID } from '../../../../common/http/examples.js';
import type { Principal } from '../../../../common/context/principal.js';
import { Errors } from '../../../../common/errors/error-catalog.js';
import { ApiErrors, Auth, CurrentPrincipal, WalletController } from '../../../../common/http/decorators.js';
import { IdOf } from '../../../../common/http/id-param.pipe.js';
import { ApiListQuery, ApiListResponse, ListQueryParams, type ListQuery } from '../../../../common/list/index.js';
import { BillingErrors as E } from '../../billing.errors.js';
import { CreatePriceDto, PriceDto, UpdatePriceDto } from './price.dto.js';
import { PRICE_LIST, PricesService } from './prices.service.js';

@WalletController('prices', { country: false })
export class PricesController {
  constructor(private readonly prices: PricesService) {}

  @Post()
  @HttpCode(200)
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({
    summary: 'Create a price',
    description: 'A price of a product: per_unit or tiered, one-time or recurring. Its amounts never change.',
  })
  // Whole examples: the fields' own examples name options that exclude each other (unit_amount and
  // tiers, a licensed price with a meter).
  @ApiBody({
    type: CreatePriceDto,
    examples: {
      licensed: {
        summary: 'THB 299.00 a month',
        value: {
          product_id: EXAMPLE_ID,
          currency: 'THB',
          unit_amount: 29900,
          recurring: { interval: 'month', usage_type: 'licensed' },
          tax_behavior: 'exclusive',
          lookup_key: 'pro_monthly',
        },
      },
      graduated: {
        summary: 'Metered API calls, graduated tiers',
        value: {
          product_id: EXAMPLE_ID,
          currency: 'THB',
          billing_scheme: 'tiered',
          tiers_mode: 'graduated',
          tiers: [
            { up_to: 1000, unit_amount: 50 },
            { up_to: 'inf', unit_amount: 25 },
          ],
          recurring: { interval: 'month', usage_type: 'metered', meter_id: EXAMPLE_ID },
        },
      },
    },
  })
  @ApiOkResponse({ type: PriceDto })
  @ApiErrors(
    Errors.E2000,
    E.E7600,
    E.E7601,
    E.E7602,
    E.E7603,
    E.E7604,
    E.E7605,
    E.E7606,
    E.E7607,
    E.E7608,
    E.E7609,
    E.E7610,
    E.E7611,
    E.E7612,
    E.E7613,
    E.E7614,
  )
  create(@CurrentPrincipal() principal: Principal, @Body() dto: CreatePriceDto) {
    return this.prices.create(principal, dto);
  }

  @Get(':id')
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'Retrieve a price' })
  @ApiOkResponse({ type: PriceDto })
  @ApiErrors(Errors.E4004)
  retrieve(@CurrentPrincipal() principal: Principal, @Param('id', IdOf('price')) id: string) {
    return this.prices.retrieve(principal, id);
  }

  @Post(':id')
  @HttpCode(200)
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({
    summary: 'Update a price',
    description: 'active, lookup_key (transfer_lookup_key) and metadata; the amounts never change (E7615).',
  })
  @ApiOkResponse({ type: PriceDto })
  @ApiErrors(Errors.E2000, Errors.E4004, E.E7612, E.E7615)
  update(
    @CurrentPrincipal() principal: Principal,
    @Param('id', IdOf('price')) id: string,
    @Body() dto: UpdatePriceDto,
  ) {
    return this.prices.update(principal, id, dto);
  }

  @Get()
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'List prices' })
  @ApiListQuery(PRICE_LIST)
  @ApiListResponse(PriceDto)
  @ApiErrors(Errors.E2004)
  list(@CurrentPrincipal() principal: Principal, @ListQueryParams(PRICE_LIST) query: ListQuery) {
    return this.prices.list(principal, query);
  }
}
