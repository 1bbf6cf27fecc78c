import { ValidateBy } from 'class-validator';

/** The largest amount in minor units the catalog takes (as checkout's MAX_AMOUNT): exact in a double and in int8. */
export const MAX_CATALOG_AMOUNT = 99_999_999_999;

/** Currencies are upper-case ISO 4217 codes, as everywhere in the service. */
export const CURRENCY_PATTERN = /^[A-Z]{3}$/;
export const CURRENCY_MESSAGE = { message: 'currency must be an upper-case ISO 4217 code such as THB' };

/** A tier's `up_to`: a positive integer quantity or the string "inf". */
export const IsTierBound = () =>
  ValidateBy({
    name: 'isTierBound',
    validator: {
      validate: (value: unknown) =>
        value === 'inf' ||
        (Number.isSafeInteger(value) && (value as number) >= 1 && (value as number) <= MAX_CATALOG_AMOUNT),
      defaultMessage: () => 'up_to must be a positive integer or "inf"',
    },
  });
