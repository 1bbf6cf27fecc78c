import { AppError } from '../../../common/errors/app-error.js';
import { paymentMethodInfo, type PaymentMethodType } from '../../../providers/ports/payment-method-types.js';
import { CheckoutErrors } from '../checkout.errors.js';

/**
 * The bank a payer chose for a type whose registry entry lists several (`apps`, e.g. FPX's banks):
 * required for such a type and one of its ids; any other type takes none. E7450, naming `bank`,
 * before anything is recorded or sent to the provider.
 */
export function payerBankOf(type: PaymentMethodType, bank: string | undefined): string | null {
  const banks = paymentMethodInfo(type).apps;
  if (banks.length < 2) {
    if (bank === undefined) return null;
    throw new AppError(
      CheckoutErrors.E7450,
      `bank is only sent with a type whose payer picks a bank; ${type} has none.`,
    ).on('bank');
  }
  if (bank !== undefined && banks.some((b) => b.id === bank)) return bank;
  throw new AppError(
    CheckoutErrors.E7450,
    `${type} needs bank, one of: ${banks.map((b) => b.id).join(', ')}${bank === undefined ? '' : ` (not "${bank}")`}.`,
  ).on('bank');
}
