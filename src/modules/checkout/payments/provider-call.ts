import type { Principal } from '../../../common/context/principal.js';
import { AppError } from '../../../common/errors/app-error.js';
import { Errors } from '../../../common/errors/error-catalog.js';
import {
  CollectionProviderError,
  type PaymentRequest,
  type SetupIntentRequest,
} from '../../../providers/ports/collection.port.js';

/** How long a payment attempt waits for its provider before it is abandoned (and may be retried). */
export const PROVIDER_TIMEOUT_MS = 30_000;

/**
 * A provider that fails to answer, or takes longer than PROVIDER_TIMEOUT_MS, is a 502 E5002. The
 * caller holds no lock while it waits; the attempt it recorded is marked failed.
 */
export async function reachProvider<T>(call: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new CollectionProviderError(`no answer within ${PROVIDER_TIMEOUT_MS / 1000} s`)),
      PROVIDER_TIMEOUT_MS,
    );
  });
  try {
    return await Promise.race([call(), timeout]);
  } catch (err) {
    if (err instanceof CollectionProviderError) throw new AppError(Errors.E5002, err.message);
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

/** A checkout's one-time session pays that checkout only (E1300). */
export function assertSessionTarget(principal: Principal, checkoutId: string): void {
  if (principal.credential.session && principal.credential.session.targetId !== checkoutId) {
    throw new AppError(Errors.E1300, 'This one-time session belongs to another checkout.');
  }
}

/** A provider whose card payments the browser confirms (Stripe's Payment Element): it makes the intent first. */
export interface IntentProvider {
  name: string;
  createCardIntent(request: PaymentRequest): Promise<{ reference: string; clientSecret: string; returnUrl: string }>;
}

export function isIntentProvider(provider: object): provider is IntentProvider {
  return typeof (provider as Partial<IntentProvider>).createCardIntent === 'function';
}

/** A provider whose cards are saved by an intent the browser confirms (Stripe's SetupIntent): it makes the intent first. */
export interface SetupIntentProvider {
  name: string;
  createSetupIntent(
    request: SetupIntentRequest,
  ): Promise<{ reference: string; clientSecret: string; customer: string }>;
}

export function isSetupIntentProvider(provider: object): provider is SetupIntentProvider {
  return typeof (provider as Partial<SetupIntentProvider>).createSetupIntent === 'function';
}
