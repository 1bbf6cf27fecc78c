import { AppError } from '../../../common/errors/app-error.js';
import { CheckoutErrors } from '../checkout.errors.js';
import type { CreateCheckoutDto } from '../dto/checkout.dto.js';
import type { Checkout } from '../entities/checkout.entity.js';

/** What a new checkout takes from its target (payment) or its customer (setup). */
export type OpeningFields = Pick<
  Checkout,
  | 'mode'
  | 'target_type'
  | 'target_id'
  | 'amount'
  | 'currency'
  | 'scaling_factor'
  | 'customer_id'
  | 'transfer_destination'
  | 'application_fee_amount'
  | 'payment_method_types'
>;

/**
 * A setup checkout saves a card and charges nothing: its target is a customer (E7033), it takes
 * cards only (E7007), nothing that prices a payment (line items, E7033), and test mode only for now
 * (E7034: live card saving through Opn or Stripe is not built yet).
 */
export function assertSetupRequest(dto: CreateCheckoutDto, livemode: boolean): void {
  if (dto.target_type !== 'customer') {
    throw new AppError(CheckoutErrors.E7033, 'A checkout in mode "setup" has target_type "customer".');
  }
  if (livemode) {
    throw new AppError(CheckoutErrors.E7034, 'Setup checkouts are available in test mode only.');
  }
  const other = (dto.payment_method_types ?? []).filter((t) => t !== 'card');
  if (other.length > 0) {
    throw new AppError(CheckoutErrors.E7007, `A setup checkout saves cards only (not ${other.join(', ')}).`);
  }
  if (dto.line_items !== undefined && dto.line_items.length > 0) {
    throw new AppError(CheckoutErrors.E7033, 'A checkout in mode "setup" charges nothing: line_items are not taken.');
  }
}
