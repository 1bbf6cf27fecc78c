export { BillingModule } from './billing.module.js';
export { BillingErrors } from './billing.errors.js';
export { ProductsService } from './catalog/products/products.service.js';
export { toProductResponse, type ProductResponse } from './catalog/products/products.responses.js';
export type { Product } from './catalog/products/entities/product.entity.js';
export { ProductDto } from './catalog/products/product.dto.js';
export { PricesService } from './catalog/prices/prices.service.js';
export { toPriceResponse, type PriceResponse } from './catalog/prices/prices.responses.js';
export type {
  BillingScheme,
  Price,
  PriceTier,
  Recurring,
  RecurringInterval,
  TaxBehavior,
  TiersMode,
  TransformQuantity,
  UsageType,
} from './catalog/prices/entities/price.entity.js';
export { PriceDto } from './catalog/prices/price.dto.js';
export { CouponsService } from './catalog/coupons/coupons.service.js';
export { toCouponResponse, couponValid, type CouponResponse } from './catalog/coupons/coupons.responses.js';
export type { Coupon, CouponDuration } from './catalog/coupons/entities/coupon.entity.js';
export { CouponDto } from './catalog/coupons/coupon.dto.js';
export { PromotionCodesService, type Redemption } from './catalog/promotion-codes/promotion-codes.service.js';
export {
  toPromotionCodeResponse,
  type PromotionCodeResponse,
} from './catalog/promotion-codes/promotion-codes.responses.js';
export type { PromotionCode } from './catalog/promotion-codes/entities/promotion-code.entity.js';
export { PromotionCodeDto } from './catalog/promotion-codes/promotion-code.dto.js';
export type { RedemptionInput } from './catalog/redemption.js';
export { TaxRatesService } from './catalog/tax-rates/tax-rates.service.js';
export { toTaxRateResponse, type TaxRateResponse } from './catalog/tax-rates/tax-rates.responses.js';
export type { TaxRate } from './catalog/tax-rates/entities/tax-rate.entity.js';
export { TaxRateDto } from './catalog/tax-rates/tax-rate.dto.js';
export * from './pricing/index.js';
export {
  SubscriptionsModule,
  SubscriptionCheckoutsService,
  CreateSubscriptionDto,
  type OpenedSubscription,
  type FirstInvoiceLine,
} from './subscriptions/index.js';
export { SubscriptionErrors } from './subscriptions/subscriptions.errors.js';
export { CreditModule } from './credit/credit.module.js';
export { CreditBalanceService, type AppliedCredit, type CreditableInvoice } from './credit/credit-balance.service.js';
export { CreditGrantsService } from './credit/credit-grants.service.js';
export { CreditGrantsJob } from './credit/credit-grants.job.js';
export { CreditGrantDto } from './credit/dto/credit-grant.dto.js';
export type { CreditDraw, PayableLine } from './credit/credit-allocation.js';
