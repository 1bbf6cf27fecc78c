import { Body, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Principal } from '../../../../common/context/principal.js';
import { Errors } from '../../../../common/errors/error-catalog.js';
import { ApiErrors, Auth, CurrentPrincipal, WalletController } from '../../../../common/http/decorators.js';
import { IdOf } from '../../../../common/http/id-param.pipe.js';
import { ApiListQuery, ApiListResponse, ListQueryParams, type ListQuery } from '../../../../common/list/index.js';
import { CreateProductDto, ProductDto, UpdateProductDto } from './product.dto.js';
import { PRODUCT_LIST, ProductsService } from './products.service.js';

@WalletController('products', { country: false })
export class ProductsController {
  constructor(private readonly products: ProductsService) {}

  @Post()
  @HttpCode(200)
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'Create a product' })
  @ApiOkResponse({ type: ProductDto })
  @ApiErrors(Errors.E2000)
  create(@CurrentPrincipal() principal: Principal, @Body() dto: CreateProductDto) {
    return this.products.create(principal, dto);
  }

  @Get(':id')
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'Retrieve a product' })
  @ApiOkResponse({ type: ProductDto })
  @ApiErrors(Errors.E4004)
  retrieve(@CurrentPrincipal() principal: Principal, @Param('id', IdOf('product')) id: string) {
    return this.products.retrieve(principal, id);
  }

  @Post(':id')
  @HttpCode(200)
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'Update a product', description: 'name, description, active and metadata.' })
  @ApiOkResponse({ type: ProductDto })
  @ApiErrors(Errors.E2000, Errors.E4004)
  update(
    @CurrentPrincipal() principal: Principal,
    @Param('id', IdOf('product')) id: string,
    @Body() dto: UpdateProductDto,
  ) {
    return this.products.update(principal, id, dto);
  }

  @Get()
  @Auth('machine', 'user', 'superuser')
  @ApiOperation({ summary: 'List products' })
  @ApiListQuery(PRODUCT_LIST)
  @ApiListResponse(ProductDto)
  @ApiErrors(Errors.E2004)
  list(@CurrentPrincipal() principal: Principal, @ListQueryParams(PRODUCT_LIST) query: ListQuery) {
    return this.products.list(principal, query);
  }
}
