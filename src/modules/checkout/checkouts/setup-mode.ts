import { AppError } from '../../../common/errors/app-error.js';
import { CheckoutErrors } from '../checkout.errors.js';
import type { CreateCheckoutDto } from '../dto/checkout.dto.js';
import type { Checkout } from '../entities/checkout.entity.js';
import type { CollectionProvider } from '../../../providers/ports/collection.port.js';

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
 * cards only (E7007), nothing that prices a payment (line items, E7033), and a provider that saves
 * cards (the sandbox's vault in test mode, Opn or Stripe in live mode; E7034 for a provider that saves none).
 */
export function assertSetupRequest(dto: CreateCheckoutDto, provider: CollectionProvider): void {
  if (dto.target_type !== 'customer') {
    throw new AppError(CheckoutErrors.E7033, 'A checkout in mode "setup" has target_type "customer".');
  }
  if (provider.testOnly !== true && !provider.saveCard) {
    throw new AppError(CheckoutErrors.E7034, `${provider.name} does not save cards.`);
  }
  const other = (dto.payment_method_types ?? []).filter((t) => t !== 'card');
  if (other.length > 0) {
    throw new AppError(CheckoutErrors.E7007, `A setup checkout saves cards only (not ${other.join(', ')}).`);
  }
  if (dto.line_items !== undefined && dto.line_items.length > 0) {
    throw new AppError(CheckoutErrors.E7033, 'A checkout in mode "setup" charges nothing: line_items are not taken.');
  }
}
