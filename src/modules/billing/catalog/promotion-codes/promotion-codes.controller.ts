import { Body, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Principal } from '../../../../common/context/principal.js';
import { Errors } from '../../../../common/errors/error-catalog.js';
import { ApiErrors, Auth, CurrentPrincipal, WalletController } from '../../../../common/http/decorators.js';
import { IdOf } from '../../../../common/http/id-param.pipe.js';
import { ApiListQuery, ApiListResponse, ListQueryParams, type ListQuery } from '../../../../common/list/index.js';
import { BillingErrors as E } from '../../billing.errors.js';
import { CreatePromotionCodeDto, PromotionCodeDto, UpdatePromotionCodeDto } from './promotion-code.dto.js';
import { PROMOTION_CODE_LIST, PromotionCodesService } from './promotion-codes.service.js';

@WalletController('promotion_codes', { country: false })
export class PromotionCodesController {
  constructor(private readonly codes: PromotionCodesService) {}

  @Post()
  @HttpCode(200)
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'Create a promotion code', description: 'A customer-facing code for a coupon.' })
  @ApiOkResponse({ type: PromotionCodeDto })
  @ApiErrors(Errors.E2000, E.E7625, E.E7630, E.E7640, E.E7641, E.E7642)
  create(@CurrentPrincipal() principal: Principal, @Body() dto: CreatePromotionCodeDto) {
    return this.codes.create(principal, dto);
  }

  @Get(':id')
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'Retrieve a promotion code' })
  @ApiOkResponse({ type: PromotionCodeDto })
  @ApiErrors(Errors.E4004)
  retrieve(@CurrentPrincipal() principal: Principal, @Param('id', IdOf('promotion code')) id: string) {
    return this.codes.retrieve(principal, id);
  }

  @Post(':id')
  @HttpCode(200)
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'Update a promotion code', description: 'active and metadata only (E7643).' })
  @ApiOkResponse({ type: PromotionCodeDto })
  @ApiErrors(Errors.E2000, Errors.E4004, E.E7643)
  update(
    @CurrentPrincipal() principal: Principal,
    @Param('id', IdOf('promotion code')) id: string,
    @Body() dto: UpdatePromotionCodeDto,
  ) {
    return this.codes.update(principal, id, dto);
  }

  @Get()
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'List promotion codes' })
  @ApiListQuery(PROMOTION_CODE_LIST)
  @ApiListResponse(PromotionCodeDto)
  @ApiErrors(Errors.E2004)
  list(@CurrentPrincipal() principal: Principal, @ListQueryParams(PROMOTION_CODE_LIST) query: ListQuery) {
    return this.codes.list(principal, query);
  }
}
