import { Module } from '@nestjs/common';
import { DatabaseModule } from '../../common/database/database.module.js';
import { MeterModule } from '../meter/index.js';
import { Price } from './catalog/prices/entities/price.entity.js';
import { PricesController } from './catalog/prices/prices.controller.js';
import { PricesRepository } from './catalog/prices/prices.repository.js';
import { PricesService } from './catalog/prices/prices.service.js';
import { Product } from './catalog/products/entities/product.entity.js';
import { ProductsController } from './catalog/products/products.controller.js';
import { ProductsRepository } from './catalog/products/products.repository.js';
import { ProductsService } from './catalog/products/products.service.js';

/** Billing: the catalog (products, prices, coupons, promotion codes, tax rates) and pure pricing (docs/BILLING.md). */
@Module({
  imports: [...DatabaseModule.forModeEntities([Product, Price]), MeterModule],
  controllers: [ProductsController, PricesController],
  providers: [ProductsRepository, ProductsService, PricesRepository, PricesService],
  exports: [ProductsService, PricesService],
})
export class BillingModule {}
