export { ratePrice, transformQuantity, type RatablePrice } from './rate-price.js';
export { allocate, couponDiscount, type CouponTerms } from './discount.js';
export { exclusiveTax, inclusiveTax, lineTaxes, type TaxTerms } from './tax.js';
export {
  computeInvoiceLines,
  type ComputedInvoice,
  type ComputedLine,
  type InvoiceInput,
  type LineInput,
} from './invoice-lines.js';
export { divideHalfUp } from './rounding.js';
export { decimalText, scaledDecimal } from './decimal.js';
