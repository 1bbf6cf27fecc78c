import Stripe from 'stripe';
import { CollectionProviderError, type ProviderFailure } from '../ports/collection.port.js';
import { TransferProviderError } from '../ports/transfer.port.js';

/** What the caller needs to decide on retry, like the Opn adapter's facts. */
export interface StripeFailureFacts {
  /** Stripe's error code (`card_declined`, `balance_insufficient`, `api_error`, `timeout`, `unreachable`, …). */
  readonly stripeCode: string;
  /** Worth retrying later with the same idempotency key (5xx, 429, lock_timeout, timeout, connection). */
  readonly retryable: boolean;
  /** The call may have taken effect at Stripe: reconcile by a read or the webhook before deciding. */
  readonly outcomeUnknown: boolean;
}

export class StripeCollectionError extends CollectionProviderError implements StripeFailureFacts {
  constructor(
    message: string,
    readonly stripeCode: string,
    readonly retryable: boolean,
    readonly outcomeUnknown: boolean,
  ) {
    super(message);
    this.name = 'StripeCollectionError';
  }
}

export class StripeTransferError extends TransferProviderError implements StripeFailureFacts {
  constructor(
    message: string,
    readonly stripeCode: string,
    readonly retryable: boolean,
    readonly outcomeUnknown: boolean,
  ) {
    super(message);
    this.name = 'StripeTransferError';
  }
}

const isTimeout = (err: Stripe.errors.StripeError) =>
  /timeout|timed out|ETIMEDOUT|ESOCKETTIMEDOUT/i.test(
    `${err.message} ${String((err.detail as Error | undefined)?.message ?? '')}`,
  );

/** Facts of an SDK error; anything that is not a StripeError (a bug) answers null and is rethrown. */
export function failureFacts(err: unknown): (StripeFailureFacts & { message: string }) | null {
  if (!(err instanceof Stripe.errors.StripeError)) return null;
  if (err instanceof Stripe.errors.StripeConnectionError) {
    const timedOut = isTimeout(err);
    return {
      stripeCode: timedOut ? 'timeout' : 'unreachable',
      retryable: true,
      outcomeUnknown: true,
      message: timedOut ? 'Stripe timed out; retry later' : 'Stripe is unreachable; retry later',
    };
  }
  const status = err.statusCode ?? 0;
  const code = err.code ?? err.type;
  if (err instanceof Stripe.errors.StripeAuthenticationError || status === 401) {
    // The SDK's message names the key (masked); the service's message names only the fact.
    return {
      stripeCode: 'authentication_error',
      retryable: false,
      outcomeUnknown: false,
      message: 'Stripe refused the configured secret key (authentication_error)',
    };
  }
  // StripeAPIError: a 5xx, or a body that is not Stripe JSON (a proxy's HTML page): Stripe's side.
  const server = status >= 500 || err instanceof Stripe.errors.StripeAPIError;
  const retryable =
    server || status === 429 || err instanceof Stripe.errors.StripeRateLimitError || code === 'lock_timeout';
  return {
    stripeCode: code,
    retryable,
    // A 5xx may come after the write was applied; a 4xx refusal was not.
    outcomeUnknown: server,
    message: retryable
      ? `Stripe is unavailable (${code}); retry later`
      : `Stripe refused the request (${code}): ${err.message}`,
  };
}

/**
 * A card error (`card_declined`, `expired_card`, `incorrect_cvc`, …) in the port's shape: `code` is
 * Stripe's error code, `reason` the issuer's `decline_code` when there is one.
 */
export function cardFailure(
  code: string | null | undefined,
  declineCode: string | null | undefined,
  message: string | null | undefined,
): ProviderFailure {
  const c = code ?? 'card_declined';
  // Stripe reports insufficient_funds as card_declined + decline_code; some integrations see it as the code.
  if (c === 'insufficient_funds')
    return {
      code: 'card_declined',
      reason: 'insufficient_funds',
      message: message ?? 'Your card has insufficient funds.',
    };
  return {
    code: c,
    reason: declineCode || (c === 'card_declined' ? 'generic_decline' : c),
    message: message ?? 'The payment was declined.',
  };
}

/** Stripe payout failure codes already are the port's vocabulary; balance errors become insufficient_funds. */
export function payoutFailureCode(code: string): string {
  return code === 'balance_insufficient' ? 'insufficient_funds' : code;
}
