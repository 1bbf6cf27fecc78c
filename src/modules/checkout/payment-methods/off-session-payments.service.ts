import { Injectable } from '@nestjs/common';
import { Clock } from '../../../common/clock.js';
import type { EntityManager } from 'typeorm';
import { scopeOf, type Principal } from '../../../common/context/principal.js';
import { AppError } from '../../../common/errors/app-error.js';
import { Errors } from '../../../common/errors/error-catalog.js';
import { IdempotencyScope } from '../../../common/idempotency/idempotency-scope.js';
import type { CollectionProvider, ProviderPayment } from '../../../providers/ports/collection.port.js';
import { CheckoutErrors } from '../checkout.errors.js';
import { toPaymentIntentResponse, type PaymentIntentResponse } from '../checkout.responses.js';
import { CheckoutsService } from '../checkouts/checkouts.service.js';
import type { CreatePaymentIntentDto } from '../dto/payment-intent.dto.js';
import type { Charge } from '../entities/charge.entity.js';
import type { PaymentIntent } from '../entities/payment-intent.entity.js';
import type { PaymentMethod } from '../entities/payment-method.entity.js';
import { NEW_CHARGE_STATUS } from '../payments/charge.transitions.js';
import { ChargesService } from '../payments/charges.service.js';
import { CheckoutPaymentsService } from '../payments/checkout-payments.service.js';
import { PROVIDER_TIMEOUT_MS, reachProvider } from '../payments/provider-call.js';
import { CollectionProviders } from '../payments/providers/collection-providers.js';
import { PaymentIntentsService } from '../targets/payment-intents.service.js';
import { TargetsService, type Target } from '../targets/targets.service.js';
import { PaymentMethodsService, savedCardOf } from './payment-methods.service.js';

/** The off-session attempt as its first transaction recorded it. */
interface Recorded {
  charge: Charge;
  paymentMethod: PaymentMethod;
  provider: CollectionProvider;
  intent: PaymentIntent;
}

/**
 * Charging a customer's saved card with the customer absent (docs/COLLECTION.md, "Saved payment
 * methods"): `POST /payment_intents` with `confirm: true`, and `confirmOffSession` for other modules
 * (invoicing and subscriptions charge the default method). The steps of a checkout confirm: record
 * the attempt (intent locked, a pending charge, the intent `processing`), call the provider with no
 * transaction open and no row locked, apply the answer in a new transaction that checks the state
 * again: `succeeded` (ledger posting like any card charge), declined (`requires_payment_method` with
 * `last_payment_error`), or authentication required: the intent waits in `requires_action` with a
 * `next_action` link to a hosted checkout where the customer pays with the same card, on-session.
 */
@Injectable()
export class OffSessionPaymentsService {
  constructor(
    private readonly intents: PaymentIntentsService,
    private readonly payments: CheckoutPaymentsService,
    private readonly charges: ChargesService,
    private readonly checkouts: CheckoutsService,
    private readonly targets: TargetsService,
    private readonly paymentMethods: PaymentMethodsService,
    private readonly providers: CollectionProviders,
    private readonly idempotency: IdempotencyScope,
    private readonly clock: Clock,
  ) {}

  /**
   * `POST /payment_intents`: created, and with `confirm: true` charged at once with its saved
   * `payment_method`. The intent is the request's idempotency recovery point: a resend after a lost
   * answer confirms that intent if no attempt was recorded, and otherwise answers it as it is.
   */
  async create(principal: Principal, dto: CreatePaymentIntentDto): Promise<PaymentIntentResponse> {
    assertConfirmRequest(dto);
    if (!dto.confirm) return this.intents.create(principal, dto);
    const resumed = this.idempotency.resumes('payment_intent');
    const intent = resumed
      ? await this.intents.retrieve(principal, resumed)
      : await this.intents.create(principal, dto, (manager, id) =>
          this.idempotency.checkpoint(manager, 'payment_intent', id),
        );
    if (intent.latest_charge !== null) return intent;
    return this.confirmOffSession(principal, intent.id, dto.payment_method!);
  }

  /**
   * Charges the payment intent `intentId` with its customer's saved method `paymentMethodId` (the
   * customer's default when omitted), the customer absent. For other modules (invoicing,
   * subscriptions): the principal's application and mode, the intent's country.
   */
  async confirmOffSession(
    principal: Principal,
    intentId: string,
    paymentMethodId?: string,
  ): Promise<PaymentIntentResponse> {
    const applicationId = principal.application.id;
    const neverMade = await this.settleDeadAttempt(principal, intentId);
    const recorded = await this.recordAttempt(principal, intentId, paymentMethodId, neverMade);
    let answer: ProviderPayment;
    try {
      answer = await reachProvider(() =>
        recorded.provider.chargeSavedCard!(
          {
            applicationId,
            chargeId: recorded.charge.id,
            amount: Number(recorded.charge.amount),
            currency: recorded.charge.currency,
            scalingFactor: recorded.charge.scaling_factor,
            livemode: principal.livemode,
            captureMethod: recorded.charge.capture_method === 'manual' ? 'manual' : 'automatic',
          },
          savedCardOf(recorded.paymentMethod),
          true,
        ),
      );
    } catch (err) {
      const unanswered = {
        status: 'failed' as const,
        reference: '',
        failure: { code: 'processing_error', reason: 'provider_unavailable', message: 'The provider did not answer.' },
      };
      // Overtaken meanwhile: nothing to mark; the provider's error is the answer either way.
      await this.applyAnswer(principal, recorded, unanswered).catch(() => undefined);
      throw err;
    }
    const intent = await this.applyAnswer(principal, recorded, answer);
    if (answer.status === 'failed' && answer.failure?.code === 'authentication_required') {
      return this.askForAuthentication(principal, intent, recorded.charge.id);
    }
    return toPaymentIntentResponse(intent);
  }

  /**
   * An intent still `processing` after PROVIDER_TIMEOUT_MS with no answer recorded (its process died
   * between the provider call and applying the answer): before charging again, the provider is asked,
   * with no transaction open, for the payment it made for that charge id (`paymentByChargeId`). A
   * payment it made is applied as that attempt's answer, so a card is never charged twice (the
   * intent is then paid, and the new attempt refused as for any paid intent); an unreachable
   * provider is E5002 and nothing changes. Answers the id of the charge the provider made no payment
   * for, which recordAttempt may then abandon; null when there is none to abandon.
   */
  private async settleDeadAttempt(principal: Principal, intentId: string): Promise<string | null> {
    const applicationId = principal.application.id;
    const intent = await this.intents.retrieve(principal, intentId);
    if (intent.status !== 'processing' || !intent.latest_charge) return null;
    const charge = await this.charges.findById(applicationId, intent.latest_charge);
    if (charge?.status !== 'pending' || charge.reference_id !== null) return null;
    if (this.clock.now().getTime() - charge.created_at.getTime() < PROVIDER_TIMEOUT_MS) return null;
    const provider = this.providers.named(charge.provider!);
    const made = await reachProvider(() => provider.paymentByChargeId(charge.id, charge.created_at));
    if (!made) return charge.id;
    await this.applyAnswer(principal, { charge, provider, intent: { id: intentId } }, made).catch((err: unknown) => {
      // Overtaken meanwhile (another request or the webhook applied it): the attempt is settled.
      if (!(err instanceof AppError)) throw err;
    });
    return null;
  }

  /** Phase 1: the intent locked for a short transaction; the pending charge on the saved method. */
  private async recordAttempt(
    principal: Principal,
    intentId: string,
    paymentMethodId: string | undefined,
    neverMade: string | null,
  ): Promise<Recorded> {
    const applicationId = principal.application.id;
    const peek = await this.intents.retrieve(principal, intentId);
    if (!peek.customer_id) {
      throw new AppError(CheckoutErrors.E7032, `Payment intent "${intentId}" has no customer_id to charge.`);
    }
    // Read before the transaction (the embedded database serves one connection while one is open).
    await this.targets.chargeableCustomer(principal, peek.customer_id);
    const methodId = paymentMethodId ?? (await this.paymentMethods.defaultOf(principal, peek.customer_id));
    if (!methodId) {
      throw new AppError(CheckoutErrors.E7032, `Customer "${peek.customer_id}" has no default payment method.`);
    }
    return this.payments.transaction(async (manager) => {
      const intent = await this.intents.lock(applicationId, intentId, manager);
      const target: Target = { type: 'payment_intent', record: intent };
      this.targets.assertPayable(target, intent.country);
      if (intent.status === 'processing') await this.abandonDeadAttempt(intent, neverMade, manager);
      if (!intent.payment_method_types.includes('card')) {
        throw new AppError(CheckoutErrors.E7007, `Payment intent "${intentId}" does not take cards.`);
      }
      const paymentMethod = await this.paymentMethods.attachedTo(
        applicationId,
        intent.customer_id!,
        methodId,
        manager,
        'share',
      );
      const provider = this.providers.forCountry(intent.country, principal.livemode);
      if (!provider.chargeSavedCard || paymentMethod.provider !== provider.name) {
        throw new AppError(CheckoutErrors.E7034, `${provider.name} does not charge this saved card.`);
      }
      const charge = await this.charges.create(
        {
          application_id: applicationId,
          country: intent.country,
          status: NEW_CHARGE_STATUS,
          customer_id: intent.customer_id,
          payment_method_id: paymentMethod.id,
          invoice_id: null,
          payment_intent: intent.id,
          currency: intent.currency,
          amount: Number(intent.amount),
          scaling_factor: intent.scaling_factor,
          amount_capturable: 0,
          capture_method: intent.capture_method,
          provider: provider.name,
          reference_id: null,
          next_action: [],
          metadata: intent.metadata,
        },
        manager,
      );
      await this.intents.process(intent, charge.id, manager, paymentMethod.id);
      return { charge, paymentMethod, provider, intent };
    });
  }

  /**
   * An intent `processing`: E7035 while its attempt may still get its provider's answer. An attempt
   * the provider was asked about and made no payment for (`neverMade`, settleDeadAttempt) is
   * abandoned as a checkout abandons one (CheckoutPaymentsService.replacePending): failed
   * `processing_error`, the intent back to `requires_payment_method`, in this transaction, so the
   * new attempt proceeds.
   */
  private async abandonDeadAttempt(
    intent: PaymentIntent,
    neverMade: string | null,
    manager: EntityManager,
  ): Promise<void> {
    const charge = intent.latest_charge
      ? await this.charges.lockById(intent.application_id, intent.latest_charge, manager)
      : null;
    if (charge?.status !== 'pending' || charge.reference_id !== null || charge.id !== neverMade) {
      throw new AppError(CheckoutErrors.E7035, `Payment intent "${intent.id}" has a payment in progress.`);
    }
    const failed = await this.charges.transition(
      charge,
      'fail',
      { failure_code: 'processing_error', failure_message: 'The provider did not answer.', reason_source: 'provider' },
      manager,
    );
    await this.payments.recordFailure({ type: 'payment_intent', record: intent }, failed, manager);
  }

  /** Phase 3: the answer applied to the intent and charge as they are now (E4090 when overtaken). */
  private async applyAnswer(
    principal: Principal,
    recorded: Pick<Recorded, 'charge' | 'provider'> & { intent: Pick<PaymentIntent, 'id'> },
    answer: ProviderPayment,
  ): Promise<PaymentIntent> {
    const applicationId = principal.application.id;
    return this.payments.transaction(async (manager: EntityManager) => {
      const intent = await this.intents.lock(applicationId, recorded.intent.id, manager);
      const charge = await this.charges.lockById(applicationId, recorded.charge.id, manager);
      if (
        !charge ||
        charge.status !== 'pending' ||
        intent.latest_charge !== charge.id ||
        intent.status !== 'processing'
      ) {
        if (answer.status === 'succeeded')
          this.payments.reconcileLater(recorded.provider.name, answer.reference, recorded.charge.id);
        throw new AppError(Errors.E4090, `The payment attempt on payment intent "${intent.id}" was overtaken.`);
      }
      const target: Target = { type: 'payment_intent', record: intent };
      if (answer.status === 'succeeded') {
        await this.payments.book(intent, target, charge, 'card', manager, { reference_id: answer.reference });
        return intent;
      }
      if (answer.status === 'authorized') {
        await this.payments.authorize(principal, null, target, charge, manager, { reference_id: answer.reference });
        return intent;
      }
      const failure = answer.failure ?? {
        code: 'processing_error',
        reason: 'processing_error',
        message: 'The payment failed.',
      };
      const failed = await this.charges.transition(
        charge,
        'fail',
        {
          reference_id: answer.reference || null,
          failure_code: failure.code,
          failure_reason: failure.reason,
          failure_message: failure.message,
          reason_source: failure.reason === 'provider_unavailable' ? 'provider' : 'issuer',
        },
        manager,
      );
      await this.payments.recordFailure(target, failed, manager);
      return intent;
    });
  }

  /**
   * The card needs 3-D Secure and the customer is absent: a hosted checkout on the intent (cards
   * only) where the customer pays with the same saved card, its link (with the checkout's one-time
   * session in the fragment) as the intent's `next_action`, and the intent `requires_action`.
   */
  private async askForAuthentication(
    principal: Principal,
    intent: PaymentIntent,
    chargeId: string,
  ): Promise<PaymentIntentResponse> {
    const scope = scopeOf(principal.application, principal.mode, intent.country);
    const checkout = await this.checkouts.create(scope, {
      target_type: 'payment_intent',
      target_id: intent.id,
      payment_method_types: ['card'],
    });
    const applicationId = principal.application.id;
    const waiting = await this.payments.transaction(async (manager) => {
      const locked = await this.intents.lock(applicationId, intent.id, manager);
      // Paid or retried meanwhile: the link is not needed any more.
      if (locked.status !== 'requires_payment_method' || locked.latest_charge !== chargeId) return locked;
      await this.intents.requireAction(
        locked,
        { type: 'redirect_to_url', redirect_to_url: { url: checkout.url, return_url: null } },
        manager,
      );
      return locked;
    });
    return toPaymentIntentResponse(waiting);
  }
}

/** `confirm: true` needs customer_id and payment_method; payment_method and off_session need confirm (E7032). */
function assertConfirmRequest(dto: CreatePaymentIntentDto): void {
  if (dto.confirm) {
    if (!dto.customer_id || !dto.payment_method) {
      throw new AppError(CheckoutErrors.E7032, 'confirm: true needs customer_id and payment_method.');
    }
    if (dto.off_session !== true) {
      throw new AppError(
        CheckoutErrors.E7032,
        'Only off-session confirmation is taken here (off_session: true); a customer who is present pays on a checkout.',
      );
    }
    return;
  }
  if (dto.payment_method !== undefined || dto.off_session !== undefined) {
    throw new AppError(CheckoutErrors.E7032, 'payment_method and off_session are sent with confirm: true.');
  }
}
