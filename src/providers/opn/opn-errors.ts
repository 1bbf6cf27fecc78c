import { CollectionProviderError, type ProviderFailure } from '../ports/collection.port.js';
import { TransferProviderError } from '../ports/transfer.port.js';
import { OpnApiError, OpnUnreachable } from './opn-client.js';

/** What the caller needs to decide on retry: the port's error classes stay plain, these add facts. */
export interface OpnFailureFacts {
  /** Opn's error code (`authentication_failure`, `service_not_found`, `http_503`, `timeout`, `unreachable`). */
  readonly opnCode: string;
  /** Worth retrying later with the same idempotency key (5xx, service_not_found, 429, timeout). */
  readonly retryable: boolean;
  /** The call may have taken effect at Opn: reconcile from the webhook or a status read before retrying. */
  readonly outcomeUnknown: boolean;
}

export class OpnCollectionError extends CollectionProviderError implements OpnFailureFacts {
  constructor(
    message: string,
    readonly opnCode: string,
    readonly retryable: boolean,
    readonly outcomeUnknown: boolean,
  ) {
    super(message);
    this.name = 'OpnCollectionError';
  }
}

export class OpnTransferError extends TransferProviderError implements OpnFailureFacts {
  constructor(
    message: string,
    readonly opnCode: string,
    readonly retryable: boolean,
    readonly outcomeUnknown: boolean,
  ) {
    super(message);
    this.name = 'OpnTransferError';
  }
}

/** Facts of a thrown client error; anything else (a bug) is rethrown unchanged by the callers. */
export function failureFacts(err: unknown): (OpnFailureFacts & { message: string }) | null {
  if (err instanceof OpnUnreachable) {
    return {
      opnCode: err.timedOut ? 'timeout' : 'unreachable',
      retryable: true,
      outcomeUnknown: true,
      message: err.timedOut ? 'Opn Payments timed out; retry later' : 'Opn Payments is unreachable; retry later',
    };
  }
  if (err instanceof OpnApiError) {
    const retryable = err.retryable;
    return {
      opnCode: err.code,
      retryable,
      // A 5xx may come after the write was applied; a 4xx refusal was not applied.
      outcomeUnknown: err.httpStatus >= 500,
      message:
        err.code === 'authentication_failure'
          ? 'Opn Payments refused the configured secret key (authentication_failure)'
          : retryable
            ? `Opn Payments is unavailable (${err.code}); retry later`
            : `Opn Payments refused the request (${err.code}): ${err.message}`,
    };
  }
  return null;
}

/** Errors that are the payer's card, not the service or Opn: they become a failed payment, not an exception. */
const CARD_API_ERRORS = new Set(['invalid_card', 'used_token', 'invalid_security_code', 'expired_card']);

export function isCardRefusal(err: unknown): err is OpnApiError {
  return err instanceof OpnApiError && err.httpStatus < 500 && CARD_API_ERRORS.has(err.code);
}

/**
 * Opn's charge `failure_code`s (https://docs.opn.ooo/charges-api#failure-codes) in the port's
 * Stripe-style shape: `code` is what the checkout shows, `reason` the finer cause.
 */
const CHARGE_FAILURES: Record<string, Omit<ProviderFailure, 'message'>> = {
  insufficient_fund: { code: 'card_declined', reason: 'insufficient_funds' },
  stolen_or_lost_card: { code: 'card_declined', reason: 'stolen_card' },
  failed_fraud_check: { code: 'card_declined', reason: 'fraudulent' },
  payment_rejected: { code: 'card_declined', reason: 'generic_decline' },
  invalid_account_number: { code: 'card_declined', reason: 'invalid_account' },
  invalid_card: { code: 'card_declined', reason: 'invalid_card' },
  used_token: { code: 'card_declined', reason: 'token_already_used' },
  invalid_security_code: { code: 'incorrect_cvc', reason: 'incorrect_cvc' },
  expired_card: { code: 'expired_card', reason: 'expired_card' },
  failed_3ds: { code: 'card_declined', reason: 'authentication_required' },
  failed_processing: { code: 'processing_error', reason: 'processing_error' },
  timeout: { code: 'processing_error', reason: 'processing_error' },
  payment_expired: { code: 'expired', reason: 'payment_expired' },
  payment_cancelled: { code: 'payment_canceled', reason: 'payment_cancelled' },
};

export function chargeFailure(opnCode: string | null | undefined, message: string | null | undefined): ProviderFailure {
  const code = opnCode ?? 'failed_processing';
  const mapped = CHARGE_FAILURES[code] ?? { code: 'card_declined', reason: code };
  return { ...mapped, message: message ?? 'The payment was declined.' };
}

/** Opn transfer failure codes in the port's Stripe payout style. */
const TRANSFER_FAILURES: Record<string, string> = {
  insufficient_fund: 'insufficient_funds',
  insufficient_balance: 'insufficient_funds',
  invalid_account_number: 'invalid_account_number',
  account_closed: 'account_closed',
  bank_account_closed: 'account_closed',
  no_account: 'no_account',
  failed_processing: 'could_not_process',
};

export function transferFailureCode(opnCode: string): string {
  return TRANSFER_FAILURES[opnCode] ?? opnCode;
}
