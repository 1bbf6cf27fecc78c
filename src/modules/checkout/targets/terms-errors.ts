import { Errors } from '../../../common/errors/error-catalog.js';
import { CheckoutErrors as E } from '../checkout.errors.js';

/** What creating a payment intent, an invoice, a checkout or a payment link can answer about its collection terms. */
export const TERMS_ERRORS = [
  Errors.E2000,
  Errors.E1303,
  Errors.E1304,
  E.E7011,
  E.E7012,
  E.E7013,
  E.E7014,
  E.E7017,
  E.E7019,
  E.E7400,
  E.E7401,
  E.E7402,
  E.E7403,
];
