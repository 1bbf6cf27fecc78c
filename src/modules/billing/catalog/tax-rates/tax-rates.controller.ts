import { Body, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Principal } from '../../../../common/context/principal.js';
import { Errors } from '../../../../common/errors/error-catalog.js';
import { ApiErrors, Auth, CurrentPrincipal, WalletController } from '../../../../common/http/decorators.js';
import { IdOf } from '../../../../common/http/id-param.pipe.js';
import { ApiListQuery, ApiListResponse, ListQueryParams, type ListQuery } from '../../../../common/list/index.js';
import { BillingErrors as E } from '../../billing.errors.js';
import { CreateTaxRateDto, TaxRateDto, UpdateTaxRateDto } from './tax-rate.dto.js';
import { TAX_RATE_LIST, TaxRatesService } from './tax-rates.service.js';

@WalletController('tax_rates', { country: false })
export class TaxRatesController {
  constructor(private readonly rates: TaxRatesService) {}

  @Post()
  @HttpCode(200)
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({
    summary: 'Create a tax rate',
    description: 'Tax is computed per line, rounded half-up (docs/BILLING.md).',
  })
  @ApiOkResponse({ type: TaxRateDto })
  @ApiErrors(Errors.E2000, E.E7650)
  create(@CurrentPrincipal() principal: Principal, @Body() dto: CreateTaxRateDto) {
    return this.rates.create(principal, dto);
  }

  @Get(':id')
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'Retrieve a tax rate' })
  @ApiOkResponse({ type: TaxRateDto })
  @ApiErrors(Errors.E4004)
  retrieve(@CurrentPrincipal() principal: Principal, @Param('id', IdOf('tax rate')) id: string) {
    return this.rates.retrieve(principal, id);
  }

  @Post(':id')
  @HttpCode(200)
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'Update a tax rate', description: 'percentage and inclusive never change (E7651).' })
  @ApiOkResponse({ type: TaxRateDto })
  @ApiErrors(Errors.E2000, Errors.E4004, E.E7651)
  update(
    @CurrentPrincipal() principal: Principal,
    @Param('id', IdOf('tax rate')) id: string,
    @Body() dto: UpdateTaxRateDto,
  ) {
    return this.rates.update(principal, id, dto);
  }

  @Get()
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'List tax rates' })
  @ApiListQuery(TAX_RATE_LIST)
  @ApiListResponse(TaxRateDto)
  @ApiErrors(Errors.E2004)
  list(@CurrentPrincipal() principal: Principal, @ListQueryParams(TAX_RATE_LIST) query: ListQuery) {
    return this.rates.list(principal, query);
  }
}
