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
