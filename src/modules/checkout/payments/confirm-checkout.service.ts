import { Injectable } from '@nestjs/common';
import { AuditRecorder } from '../../../common/audit/audit-recorder.js';
import { Clock } from '../../../common/clock.js';
import type { Principal } from '../../../common/context/principal.js';
import { AppError } from '../../../common/errors/app-error.js';
import { Errors } from '../../../common/errors/error-catalog.js';
import { IdempotencyScope } from '../../../common/idempotency/idempotency-scope.js';
import { CheckoutErrors } from '../checkout.errors.js';
import { PROMPTPAY_QR_LIFETIME_MS } from '../checkout-rules.js';
import type { PaymentMethodType } from '../../../providers/ports/collection.port.js';
import type { ConfirmCheckoutDto } from '../dto/checkout.dto.js';
import { CheckoutsService } from '../checkouts/checkouts.service.js';
import { collectedTarget } from '../checkouts/subscription-mode.js';
import type { Charge, InstallmentDetails } from '../entities/charge.entity.js';
import type { Checkout } from '../entities/checkout.entity.js';
import type { Target } from '../targets/targets.service.js';
import { CardTokensService } from './card-tokens.service.js';
import { ChargeOutcomesService } from './charge-outcomes.service.js';
import { ChargesService } from './charges.service.js';
import { CheckoutPaymentsService, type Attempt, type CheckoutPaymentResponse } from './checkout-payments.service.js';
import { nextActionsOf, type PendingAnswer } from './next-actions.js';
import { payerBankOf } from './payer-bank.js';
import { assertSessionTarget, reachProvider } from './provider-call.js';
import type {
  BuyerPlatform,
  CollectionProvider,
  ProviderPayment,
  VaultCard,
} from '../../../providers/ports/collection.port.js';
import { paymentMethodInfo } from '../../../providers/ports/payment-method-types.js';
import { CollectionProviders } from './providers/collection-providers.js';
import type { PaymentMethod } from '../entities/payment-method.entity.js';
import { PaymentMethodsService, savedCardOf } from '../payment-methods/payment-methods.service.js';
import { SetupCheckoutsService, type CheckoutSetupResponse } from '../payment-methods/setup-checkouts.service.js';
import type { EntityManager } from 'typeorm';

/** What the buyer pays with: a card (by its token, or a saved card of the checkout's customer), PromptPay, or another QR or redirect type. */
export interface Method {
  type: PaymentMethodType;
  token: string | null;
  saved: string | null;
  /** The buyer's device (redirect flows: a phone gets the app's deep link). */
  platform: BuyerPlatform;
  /** Installment types: the term chosen on the page. */
  installmentTerm: number | null;
  /** The bank the payer picked, for a type whose payer picks one (FPX): payer-bank.ts. */
  bank: string | null;
}

/** The attempt as the first transaction recorded it, before the provider is called. */
interface Recorded {
  charge: Charge;
  provider: CollectionProvider;
  paymentMethodId: string;
  vaultCard: VaultCard | null;
  /** A saved card of the checkout's customer, paid with the customer on the page. */
  saved: PaymentMethod | null;
  /** The destination charge's terms, as the locked checkout had them. */
  transfer: Pick<Checkout, 'transfer_destination' | 'application_fee_amount'>;
}

/** The provider's answer, with the expiry asked for (PromptPay's QR code, a redirect's payment page). */
interface Answered {
  result: ProviderPayment;
  qrExpiry: Date;
}

/**
 * `POST /checkouts/{id}/confirm`: paying a checkout by card or PromptPay through the provider
 * serving its country, in three phases: record the attempt (checkout and target locked for a short
 * transaction), call the provider with no transaction open and no row locked, apply the answer in
 * a new transaction that checks the state again. With an `Idempotency-Key` the charge is the key's
 * recovery point, committed with it: a resend after a lost answer resumes that charge (`resume`).
 */
@Injectable()
export class ConfirmCheckoutService {
  constructor(
    private readonly payments: CheckoutPaymentsService,
    private readonly checkouts: CheckoutsService,
    private readonly charges: ChargesService,
    private readonly cardTokens: CardTokensService,
    private readonly providers: CollectionProviders,
    private readonly paymentMethods: PaymentMethodsService,
    private readonly setups: SetupCheckoutsService,
    private readonly outcomes: ChargeOutcomesService,
    private readonly idempotency: IdempotencyScope,
    private readonly clock: Clock,
    private readonly audit: AuditRecorder,
  ) {}

  async confirm(
    principal: Principal,
    id: string,
    dto: ConfirmCheckoutDto,
  ): Promise<CheckoutPaymentResponse | CheckoutSetupResponse> {
    assertSessionTarget(principal, id);
    const found = await this.checkouts.find(principal.application.id, id);
    // A setup checkout, or a subscription checkout starting a trial: the card is saved, nothing charged.
    if (found && !collectedTarget(found) && found.target_type === 'customer')
      return this.setups.confirm(principal, id, dto);
    return this.pay(principal, id, dto);
  }

  /** Pays a checkout in mode `payment`. */
  async pay(principal: Principal, id: string, dto: ConfirmCheckoutDto): Promise<CheckoutPaymentResponse> {
    assertSessionTarget(principal, id);
    const method = methodOf(dto);
    const resumed = this.idempotency.resumes('charge');
    if (resumed) return this.resume(principal, id, resumed, method);
    const recorded = await this.recordAttempt(principal, id, method);
    const answered = await this.callProvider(principal, id, recorded, method);
    const attempt = await this.applyAnswer(principal, id, recorded, method, answered);
    return this.payments.answer(principal, attempt);
  }

  /** Phase 1: the checkout and its target locked only for this short transaction; the pending charge. */
  private recordAttempt(principal: Principal, id: string, method: Method): Promise<Recorded> {
    const applicationId = principal.application.id;
    return this.payments.transaction(async (manager) => {
      const checkout = await this.payments.lockPayable(applicationId, id, manager);
      this.payments.assertMethodAllowed(checkout, method.type);
      const target = await this.payments.lockTarget(checkout, manager);
      const provider = this.providers.forCountry(checkout.country, principal.livemode);
      if (checkout.pending_charge_id) await this.payments.replacePending(checkout, this.clock.now(), manager);
      // A test-only provider (the sandbox) charges this service's vault tokens: the token is used
      // up here, with the checkout locked; any other provider gets its own token as it came.
      const vaultCard =
        method.token && provider.testOnly === true
          ? await this.cardTokens.consume(applicationId, id, method.token, manager)
          : null;
      const saved = method.saved ? await this.savedCard(checkout, method.saved, provider, manager) : null;
      const attempt = await this.payments.newAttempt(
        checkout,
        target,
        provider.name,
        method.type,
        manager,
        vaultCard,
        saved,
        installmentOf(method, Number(checkout.amount), checkout.currency),
        method.bank,
      );
      await this.idempotency.checkpoint(manager, 'charge', attempt.charge.id);
      // The pending charge has no event until the provider answers (charge.succeeded, …): its audit row.
      await this.audit.record(manager, {
        applicationId,
        action: 'charge.created',
        target: { type: 'charge', id: attempt.charge.id },
        metadata: { checkout_id: checkout.id, payment_method_type: method.type },
      });
      const transfer = {
        transfer_destination: checkout.transfer_destination,
        application_fee_amount: checkout.application_fee_amount,
      };
      const paymentMethodId = attempt.paymentMethod.id;
      return { charge: attempt.charge, provider, paymentMethodId, vaultCard, saved, transfer };
    });
  }

  /**
   * A saved card paid on the hosted page: attached to the checkout's customer (E7030, E7031), at a
   * provider that charges saved cards (E7034), and held (shared lock) until the attempt is recorded.
   */
  private async savedCard(
    checkout: Checkout,
    id: string,
    provider: CollectionProvider,
    manager: EntityManager,
  ): Promise<PaymentMethod> {
    if (!checkout.customer_id) {
      throw new AppError(CheckoutErrors.E7031, `Checkout "${checkout.id}" has no customer to own a saved card.`);
    }
    const pm = await this.paymentMethods.attachedTo(
      checkout.application_id,
      checkout.customer_id,
      id,
      manager,
      'share',
    );
    if (!provider.chargeSavedCard || pm.provider !== provider.name) {
      throw new AppError(CheckoutErrors.E7034, `${provider.name} does not charge this saved card.`);
    }
    return pm;
  }

  /**
   * A resend of a keyed confirm whose earlier attempt recorded the charge (docs/IDEMPOTENCY.md). A
   * charge with its answer is answered as it is. One without: its provider is asked for the
   * payment it made for this charge id and that answer applied (as ChargeReconciliationJob does);
   * a provider that made none is sent the charge again under the same charge id (its idempotency
   * key: never a second payment), phases 2 and 3 as a first attempt. A provider that cannot be
   * asked is E5002 and the charge stays pending, for the next resend or the job.
   */
  private async resume(
    principal: Principal,
    id: string,
    chargeId: string,
    method: Method,
  ): Promise<CheckoutPaymentResponse> {
    const applicationId = principal.application.id;
    const charge = (await this.charges.findById(applicationId, chargeId))!;
    let dispute = false;
    if (charge.status === 'pending' && !charge.reference_id) {
      const provider = this.providers.named(charge.provider!);
      const made = await reachProvider(() => provider.paymentByChargeId(charge.id, charge.created_at));
      if (made) {
        const applied = await this.outcomes.applyTo(charge, provider.name, made);
        dispute = applied === 'applied' && made.disputeAfterSuccess === true;
      } else {
        const checkout = (await this.checkouts.find(applicationId, id))!;
        const vaultCard =
          method.token && provider.testOnly === true
            ? await this.cardTokens.usedOn(applicationId, id, method.token)
            : null;
        const saved =
          method.saved && checkout.customer_id
            ? await this.paymentMethods.attachedTo(applicationId, checkout.customer_id, method.saved)
            : null;
        const recorded: Recorded = {
          charge,
          provider,
          paymentMethodId: charge.payment_method_id!,
          vaultCard,
          saved,
          transfer: checkout,
        };
        const answered = await this.callProvider(principal, id, recorded, method);
        return this.payments.answer(principal, await this.applyAnswer(principal, id, recorded, method, answered));
      }
    }
    const checkout = (await this.checkouts.find(applicationId, id))!;
    const now = (await this.charges.findById(applicationId, chargeId))!;
    return this.payments.answer(principal, { checkout, charge: now, dispute });
  }

  /** Phase 2: the provider, with no transaction open and no row locked; on no answer the attempt is abandoned. */
  private async callProvider(principal: Principal, id: string, recorded: Recorded, method: Method): Promise<Answered> {
    const applicationId = principal.application.id;
    const { charge, provider } = recorded;
    const qrExpiry = new Date(
      this.clock.nowMs() + (paymentMethodInfo(method.type).expiresAfterMs ?? PROMPTPAY_QR_LIFETIME_MS),
    );
    try {
      const request = {
        applicationId,
        chargeId: charge.id,
        amount: Number(charge.amount),
        currency: charge.currency,
        scalingFactor: charge.scaling_factor,
        livemode: principal.livemode,
        captureMethod: charge.capture_method === 'manual' ? ('manual' as const) : ('automatic' as const),
        destination: await this.payments.destinationOf(
          applicationId,
          recorded.transfer,
          provider.name,
          principal.livemode,
        ),
      };
      const saved = recorded.saved;
      const result = await reachProvider(() => {
        if (saved) return provider.chargeSavedCard!(request, savedCardOf(saved), false);
        if (method.token) return provider.chargeCard(request, method.token, recorded.vaultCard ?? undefined);
        if (method.type === 'promptpay') return provider.createPromptPay(request, qrExpiry);
        return provider.createSourcePayment!(request, {
          type: method.type,
          expiresAt: qrExpiry,
          platform: method.platform,
          bank: method.bank,
          ...(method.installmentTerm
            ? {
                installment: {
                  term: method.installmentTerm,
                  zeroInterest: recorded.charge.installment?.absorption !== 'customer',
                },
              }
            : {}),
        });
      });
      return { result, qrExpiry };
    } catch (err) {
      await this.payments.abandon(applicationId, id, charge.id, err);
      throw err;
    }
  }

  /**
   * Phase 3: the answer applied to the state as it is now. An attempt overtaken meanwhile, or whose
   * target can no longer be paid, is refused after its transaction commits what it changed.
   */
  private async applyAnswer(
    principal: Principal,
    id: string,
    recorded: Recorded,
    method: Method,
    { result, qrExpiry }: Answered,
  ): Promise<Attempt> {
    const applicationId = principal.application.id;
    const providerName = recorded.provider.name;
    const attempt = await this.payments.transaction(async (manager): Promise<Attempt | AppError> => {
      const checkout = await this.checkouts.find(applicationId, id, manager, true);
      const charge = await this.charges.lockById(applicationId, recorded.charge.id, manager);
      if (!checkout || !charge || charge.status !== 'pending' || checkout.pending_charge_id !== charge.id) {
        if (result.status === 'succeeded')
          this.payments.reconcileLater(providerName, result.reference, recorded.charge.id);
        return new AppError(Errors.E4090, `The payment attempt on checkout "${id}" was overtaken; try again.`);
      }
      let target: Target;
      try {
        target = await this.payments.lockTarget(checkout, manager);
      } catch (refused) {
        // The target changed while the provider answered (canceled, voided): the attempt fails.
        if (!(refused instanceof AppError)) throw refused;
        await this.charges.transition(
          charge,
          'fail',
          {
            reference_id: result.reference,
            failure_code: 'processing_error',
            failure_reason: 'target_not_payable',
            failure_message: refused.message,
            reason_source: 'merchant',
          },
          manager,
        );
        await this.payments.clearPending(checkout, manager);
        if (result.status === 'succeeded') this.payments.reconcileLater(providerName, result.reference, charge.id);
        return refused;
      }
      if (result.status === 'succeeded') {
        const paid = await this.payments.succeed(principal, checkout, target, charge, method.type, manager, {
          reference_id: result.reference,
        });
        return { checkout, charge: paid, dispute: result.disputeAfterSuccess === true };
      }
      if (result.status === 'authorized') {
        const held = await this.payments.authorize(principal, checkout, target, charge, manager, {
          reference_id: result.reference,
        });
        return { checkout, charge: held, dispute: false };
      }
      if (result.status === 'failed') {
        const failed = await this.charges.transition(
          charge,
          'fail',
          {
            reference_id: result.reference,
            failure_code: result.failure?.code ?? null,
            failure_reason: result.failure?.reason ?? null,
            failure_message: result.failure?.message ?? null,
            reason_source: 'issuer',
          },
          manager,
        );
        await this.payments.clearPending(checkout, manager);
        await this.payments.recordFailure(target, failed, manager);
        return { checkout, charge: failed, dispute: false };
      }
      const pending = await this.charges.recordProviderFacts(
        charge,
        {
          reference_id: result.reference,
          settlement_status: 'pending',
          expires_at: qrExpiry,
          promptpay: result.promptpay ?? null,
          next_action: nextActionsOf(result as PendingAnswer, recorded.paymentMethodId, method.type),
        },
        manager,
      );
      await this.payments.recordPending(checkout, target, pending, manager);
      return { checkout, charge: pending, dispute: false };
    });
    if (attempt instanceof AppError) throw attempt;
    return attempt;
  }
}

/**
 * A card installment's plan as the charge records it (the contract's `charge.installment`): the
 * merchant absorbs the interest (Opn `zero_interest_installments: true`), so the buyer pays the
 * amount in `term` months, the first month carrying the remainder of the division. A month below
 * the issuer's minimum is E7408.
 */
export function installmentOf(method: Method, amount: number, currency: string): InstallmentDetails | null {
  const plan = paymentMethodInfo(method.type).installment;
  if (!plan || method.installmentTerm === null) return null;
  const term = method.installmentTerm;
  const monthly = Math.floor(amount / term);
  const minimum = plan.minMonthly[currency];
  if (minimum !== undefined && monthly < minimum) {
    throw new AppError(
      CheckoutErrors.E7408,
      `${term} months of ${amount} ${currency} is ${monthly} a month; ${plan.issuer} takes at least ${minimum} a month.`,
    ).on('installment_term');
  }
  return {
    term,
    issuer: plan.issuer,
    card_face_id: null,
    interest_amount: 0,
    absorption: 'merchant',
    monthly_amount: monthly,
    first_amount: amount - monthly * (term - 1),
  };
}

/** The payment method of a confirm: a card needs its token or a saved card (E7008), PromptPay neither. */
function methodOf(dto: ConfirmCheckoutDto): Method {
  const type = dto.payment_method_type as PaymentMethodType;
  if (type === 'card' && !dto.token && !dto.payment_method) {
    throw new AppError(
      CheckoutErrors.E7008,
      'token is required for payment_method_type "card" (tokenize the card first: POST /api/v1/{app}/vault/tokens in test mode).',
    );
  }
  if (dto.token !== undefined && dto.payment_method !== undefined) {
    throw new AppError(CheckoutErrors.E7008, 'Send either token or payment_method, not both.');
  }
  if (type !== 'card' && (dto.token !== undefined || dto.payment_method !== undefined)) {
    throw new AppError(CheckoutErrors.E7008, 'token and payment_method are only sent with payment_method_type "card".');
  }
  const platform = dto.platform ?? null;
  const installmentTerm = dto.installment_term ?? null;
  const plan = paymentMethodInfo(type).installment;
  if (installmentTerm !== null && !plan) {
    throw new AppError(
      CheckoutErrors.E7407,
      `installment_term is only sent with an installment_* payment_method_type.`,
    ).on('installment_term');
  }
  if (plan && (installmentTerm === null || !plan.terms.includes(installmentTerm))) {
    throw new AppError(
      CheckoutErrors.E7407,
      `${type} takes installment_term ${plan.terms.join(', ')} (months)${installmentTerm === null ? '' : `, not ${installmentTerm}`}.`,
    ).on('installment_term');
  }
  const bank = payerBankOf(type, dto.bank);
  if (type !== 'card') return { type, token: null, saved: null, platform, installmentTerm, bank };
  return { type, token: dto.token ?? null, saved: dto.payment_method ?? null, platform, installmentTerm, bank };
}
