import { Module } from '@nestjs/common';
import { DatabaseModule } from '../../common/database/database.module.js';
import { MeterModule } from '../meter/index.js';
import { CouponsController } from './catalog/coupons/coupons.controller.js';
import { CouponsRepository } from './catalog/coupons/coupons.repository.js';
import { CouponsService } from './catalog/coupons/coupons.service.js';
import { Coupon } from './catalog/coupons/entities/coupon.entity.js';
import { Price } from './catalog/prices/entities/price.entity.js';
import { PricesController } from './catalog/prices/prices.controller.js';
import { PricesRepository } from './catalog/prices/prices.repository.js';
import { PricesService } from './catalog/prices/prices.service.js';
import { Product } from './catalog/products/entities/product.entity.js';
import { ProductsController } from './catalog/products/products.controller.js';
import { ProductsRepository } from './catalog/products/products.repository.js';
import { ProductsService } from './catalog/products/products.service.js';
import { PromotionCode } from './catalog/promotion-codes/entities/promotion-code.entity.js';
import { PromotionCodesController } from './catalog/promotion-codes/promotion-codes.controller.js';
import { PromotionCodesRepository } from './catalog/promotion-codes/promotion-codes.repository.js';
import { PromotionCodesService } from './catalog/promotion-codes/promotion-codes.service.js';
import { TaxRate } from './catalog/tax-rates/entities/tax-rate.entity.js';
import { TaxRatesController } from './catalog/tax-rates/tax-rates.controller.js';
import { TaxRatesRepository } from './catalog/tax-rates/tax-rates.repository.js';
import { TaxRatesService } from './catalog/tax-rates/tax-rates.service.js';

/** Billing: the catalog (products, prices, coupons, promotion codes, tax rates) and pure pricing (docs/BILLING.md). */
@Module({
  imports: [...DatabaseModule.forModeEntities([Product, Price, Coupon, PromotionCode, TaxRate]), MeterModule],
  controllers: [ProductsController, PricesController, CouponsController, PromotionCodesController, TaxRatesController],
  providers: [
    ProductsRepository,
    ProductsService,
    PricesRepository,
    PricesService,
    CouponsRepository,
    CouponsService,
    PromotionCodesRepository,
    PromotionCodesService,
    TaxRatesRepository,
    TaxRatesService,
  ],
  exports: [ProductsService, PricesService, CouponsService, PromotionCodesService, TaxRatesService],
})
export class BillingModule {}
