import { Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../../common/clock.js';
import type { Principal, Scope } from '../../../common/context/principal.js';
import { AppError } from '../../../common/errors/app-error.js';
import { Errors } from '../../../common/errors/error-catalog.js';
import { AccountsService } from '../../accounts/index.js';
import { SessionsService } from '../../auth/index.js';
import { CheckoutErrors } from '../checkout.errors.js';
import { toInvoiceResponse, type CheckoutResponse } from '../checkout.responses.js';
import type { PaymentMethodType } from '../../../providers/ports/collection.port.js';
import { CheckoutsService, effectiveStatus } from '../checkouts/checkouts.service.js';
import type { Charge, InstallmentDetails } from '../entities/charge.entity.js';
import type { Checkout } from '../entities/checkout.entity.js';
import type { PaymentMethod } from '../entities/payment-method.entity.js';
import { InvoicesService } from '../targets/invoices.service.js';
import { PaymentIntentsService } from '../targets/payment-intents.service.js';
import { TargetsService, type Target } from '../targets/targets.service.js';
import { collectedTarget } from '../checkouts/subscription-mode.js';
import { ChargeHooks } from './charge-hooks.js';
import { SubscriptionCompletionService } from './subscription-completion.service.js';
import { ChargeJournals } from './charge.journals.js';
import { NEW_CHARGE_STATUS } from './charge.transitions.js';
import { ChargesRepository } from './charges.repository.js';
import type { ChargeResponse } from './charges.responses.js';
import { ChargesService } from './charges.service.js';
import { PROVIDER_TIMEOUT_MS } from './provider-call.js';
import { AUTHORIZATION_LIFETIME_MS } from '../checkout-rules.js';
import type { PaymentRequest, VaultCard } from '../../../providers/ports/collection.port.js';
import { CollectionProviders } from './providers/collection-providers.js';

/** What the hosted page gets back from a payment attempt. */
export interface CheckoutPaymentResponse {
  object: 'checkout_payment';
  checkout: CheckoutResponse;
  charge: ChargeResponse;
  /** Where the page sends the buyer now: the success_url once paid, else null. */
  redirect_url: string | null;
}

/** A payment attempt as its transaction left it. */
export interface Attempt {
  checkout: Checkout;
  charge: Charge;
  /** Sandbox: open a dispute right after the commit. */
  dispute: boolean;
}

/**
 * The steps every way of paying a checkout shares (a confirm, the Payment Element's intent, the
 * PromptPay test helper, a provider's later outcome): one transaction per step, locking checkout,
 * charge and target in that order, so two attempts cannot both succeed; on success the ledger
 * posting, the target paid and the checkout complete, each through its owner's service.
 */
@Injectable()
export class CheckoutPaymentsService {
  private readonly logger = new Logger(CheckoutPaymentsService.name);

  constructor(
    private readonly chargeRows: ChargesRepository,
    private readonly charges: ChargesService,
    private readonly checkouts: CheckoutsService,
    private readonly targets: TargetsService,
    private readonly paymentIntents: PaymentIntentsService,
    private readonly invoices: InvoicesService,
    private readonly journals: ChargeJournals,
    private readonly providers: CollectionProviders,
    private readonly accounts: AccountsService,
    private readonly sessions: SessionsService,
    private readonly hooks: ChargeHooks,
    private readonly clock: Clock,
    private readonly subscriptionCompletion: SubscriptionCompletionService,
  ) {}

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.chargeRows.transaction(work);
  }

  /** The checkout, locked, if it can still be paid: E7006 when complete, E7005 when expired. */
  async lockPayable(applicationId: string, id: string, manager: EntityManager): Promise<Checkout> {
    const checkout = await this.checkouts.find(applicationId, id, manager, true);
    if (!checkout) throw new AppError(Errors.E4004, `No checkout with id "${id}".`);
    this.assertPayable(checkout);
    return checkout;
  }

  /** The checkout (no lock) if it can still be paid. */
  async payable(applicationId: string, id: string): Promise<Checkout> {
    const checkout = await this.checkouts.find(applicationId, id);
    if (!checkout) throw new AppError(Errors.E4004, `No checkout with id "${id}".`);
    this.assertPayable(checkout);
    return checkout;
  }

  private assertPayable(checkout: Checkout): void {
    const status = effectiveStatus(checkout, this.clock.now());
    if (status === 'complete')
      throw new AppError(CheckoutErrors.E7006, `Checkout "${checkout.id}" is already complete.`);
    if (status === 'expired') {
      throw new AppError(
        CheckoutErrors.E7005,
        `Checkout "${checkout.id}" expired at ${checkout.expires_at.toISOString()}.`,
      );
    }
  }

  /** Refuses a payment method type the checkout does not take (E7007). */
  assertMethodAllowed(checkout: Checkout, type: PaymentMethodType): void {
    if (!checkout.payment_method_types.includes(type)) {
      throw new AppError(
        CheckoutErrors.E7007,
        `payment_method_type "${type}" is not allowed (allowed: ${checkout.payment_method_types.join(', ')}).`,
      );
    }
  }

  /** The checkout's target, locked, if it can be paid in the checkout's country. */
  async lockTarget(checkout: Checkout, manager: EntityManager): Promise<Target> {
    const collected = collectedTarget(checkout);
    if (!collected) {
      throw new AppError(
        CheckoutErrors.E7033,
        `Checkout "${checkout.id}" saves a card (mode "${checkout.mode}"): it has nothing to pay.`,
      );
    }
    const target = await this.targets.load(checkout.application_id, collected.type, collected.id, manager, true);
    if (checkout.subscription_id) await this.subscriptionCompletion.assertStartable(checkout, manager);
    this.targets.assertPayable(target, checkout.country);
    return target;
  }

  /**
   * A pending charge on the checkout when a new attempt starts: a PromptPay QR code still waiting is
   * canceled (the buyer chose again); an attempt still waiting for its provider is refused, unless
   * it has waited longer than a provider call may take (its process died: it is abandoned).
   */
  async replacePending(checkout: Checkout, now: Date, manager: EntityManager): Promise<void> {
    const replaced = await this.charges.lockById(checkout.application_id, checkout.pending_charge_id!, manager);
    if (replaced?.status !== 'pending') return;
    const inFlight = replaced.reference_id === null;
    if (inFlight && now.getTime() - replaced.created_at.getTime() < PROVIDER_TIMEOUT_MS) {
      throw new AppError(Errors.E4090, `A payment of checkout "${checkout.id}" is in progress.`);
    }
    if (inFlight) {
      await this.charges.transition(
        replaced,
        'fail',
        {
          failure_code: 'processing_error',
          failure_message: 'The provider did not answer.',
          reason_source: 'provider',
        },
        manager,
      );
    } else {
      await this.charges.transition(replaced, 'cancel', { canceled: true, canceled_at: now }, manager);
    }
  }

  /**
   * A new attempt on a locked checkout: its payment method and pending charge, the checkout pending
   * on it. The bank the payer picked (FPX) is the payment method's `issuer`, as a card's issuing bank is.
   */
  async newAttempt(
    checkout: Checkout,
    target: Target,
    providerName: string,
    type: PaymentMethodType,
    manager: EntityManager,
    vaultCard: VaultCard | null = null,
    saved: PaymentMethod | null = null,
    installment: InstallmentDetails | null = null,
    bank: string | null = null,
  ) {
    const paymentMethod =
      saved ??
      (await this.charges.createPaymentMethod(
        {
          application_id: checkout.application_id,
          customer_id: checkout.customer_id,
          type,
          provider: providerName,
          ...(vaultCard
            ? {
                brand: vaultCard.brand,
                issuer: 'Sandbox Bank',
                last4: vaultCard.last4,
                fingerprint: vaultCard.fingerprint,
                exp_month: vaultCard.exp_month,
                exp_year: vaultCard.exp_year,
                card_holder_name: vaultCard.name,
                billing_details: { name: vaultCard.name },
                // A subscription checkout saves this card once paid: its test outcome goes with it.
                ...(checkout.mode === 'subscription' ? { sandbox_outcome: vaultCard.sandbox_outcome } : {}),
              }
            : {}),
          ...(bank ? { issuer: bank } : {}),
        },
        manager,
      ));
    const charge = await this.charges.create(
      {
        application_id: checkout.application_id,
        country: checkout.country,
        status: NEW_CHARGE_STATUS,
        customer_id: checkout.customer_id,
        payment_method_id: paymentMethod.id,
        payment_method_type: type,
        invoice_id: target.type === 'invoice' ? target.record.id : null,
        payment_intent: target.type === 'payment_intent' ? target.record.id : null,
        currency: checkout.currency,
        amount: Number(checkout.amount),
        scaling_factor: checkout.scaling_factor,
        amount_capturable: 0,
        capture_method: captureMethodOf(target),
        provider: providerName,
        reference_id: null,
        next_action: [],
        installment,
        metadata: target.record.metadata,
      },
      manager,
    );
    await this.checkouts.setPending(checkout, charge.id, manager);
    return { charge, paymentMethod };
  }

  /**
   * A destination charge's parameters: the connected account and the provider's own account of it
   * (Stripe Connect `acct_…`, null where the provider keeps none), with the application's fee. The
   * same for a confirm and for the Payment Element's PaymentIntent.
   */
  async destinationOf(
    applicationId: string,
    checkout: Pick<Checkout, 'transfer_destination' | 'application_fee_amount'>,
    provider: string,
    livemode: boolean,
  ): Promise<PaymentRequest['destination']> {
    const destination = checkout.transfer_destination;
    if (!destination) return undefined;
    const providerAccount = await this.accounts.providerAccount(applicationId, destination, provider, livemode);
    return { account: destination, providerAccount, applicationFeeAmount: Number(checkout.application_fee_amount) };
  }

  /** The provider did not answer (or answered an error): the attempt fails and the checkout can be paid again. */
  async abandon(applicationId: string, checkoutId: string | null, chargeId: string, err: unknown): Promise<boolean> {
    try {
      return await this.transaction(async (manager) => {
        const checkout = checkoutId ? await this.checkouts.find(applicationId, checkoutId, manager, true) : null;
        const charge = await this.charges.lockById(applicationId, chargeId, manager);
        if (!charge || charge.status !== 'pending') return false;
        await this.charges.transition(
          charge,
          'fail',
          {
            failure_code: 'processing_error',
            failure_reason: 'provider_unavailable',
            failure_message: err instanceof Error ? err.message.slice(0, 500) : 'The provider did not answer.',
            reason_source: 'provider',
          },
          manager,
        );
        if (checkout?.pending_charge_id === chargeId) await this.clearPending(checkout, manager);
        return true;
      });
    } catch (cleanup) {
      // The charge stays pending; the next attempt on the checkout abandons it after PROVIDER_TIMEOUT_MS.
      this.logger.error({ err: cleanup }, `charge ${chargeId} could not be marked failed after its provider failed`);
      return false;
    }
  }

  /** The locked checkout waits on no attempt any more. */
  clearPending(checkout: Checkout, manager: EntityManager): Promise<void> {
    return this.checkouts.setPending(checkout, null, manager);
  }

  /** The locked checkout waits on `charge`, still pending at its provider; a payment intent is `processing`. */
  async recordPending(checkout: Checkout, target: Target, charge: Charge, manager: EntityManager): Promise<void> {
    await this.checkouts.setPending(checkout, charge.id, manager);
    if (target.type === 'payment_intent') await this.paymentIntents.process(target.record, charge.id, manager);
  }

  /**
   * The locked attempt succeeded: the ledger posting, the charge succeeded, the target paid and the
   * checkout complete (their events in that order).
   */
  async succeed(
    scope: Scope,
    checkout: Checkout,
    target: Target,
    charge: Charge,
    method: PaymentMethodType,
    manager: EntityManager,
    providerFacts: Omit<Partial<Charge>, 'status'> = {},
  ): Promise<Charge> {
    const updated = await this.book(checkout, target, charge, method, manager, providerFacts);
    if (checkout.subscription_id) await this.subscriptionCompletion.paid(checkout, updated, manager);
    await this.checkouts.complete(scope, checkout, charge.id, manager);
    return updated;
  }

  /**
   * The locked attempt succeeded, with or without a checkout (an off-session payment has none): the
   * ledger posting, the charge succeeded and the target paid. `terms` are the destination charge's,
   * as the checkout or the payment intent has them.
   */
  async book(
    terms: Pick<Checkout, 'application_id' | 'transfer_destination' | 'application_fee_amount'>,
    target: Target,
    charge: Charge,
    method: PaymentMethodType,
    manager: EntityManager,
    providerFacts: Omit<Partial<Charge>, 'status'> = {},
  ): Promise<Charge> {
    const provider = this.providers.named(charge.provider ?? 'sandbox');
    const amount = Number(charge.amount);
    const fee = provider.fee(method, amount, charge.currency);
    const destination = terms.transfer_destination;
    const applicationFee = destination ? Number(terms.application_fee_amount) : 0;
    const booked = await this.journals.postSucceededCharge(charge, fee, destination, applicationFee, manager);
    const updated = await this.charges.transition(
      charge,
      'succeed',
      {
        ...providerFacts,
        paid: true,
        captured: true,
        amount_captured: amount,
        balance_id: booked.balance_id,
        net_amount: amount - fee,
        provider_fee_amount: fee,
        application_fee_amount: applicationFee,
        payable_amount: booked.net,
        settlement_status: 'settled',
        expires_at: null,
        next_action: [],
        transfer_data: booked.transfer_data,
        application: destination ? terms.application_id : null,
        application_fee: booked.application_fee_entry,
        transfer: booked.transfer_entry,
        on_behalf_of: destination,
      },
      manager,
    );
    const paidBy = { id: charge.id, amount };
    if (target.type === 'payment_intent') await this.paymentIntents.succeed(target.record, paidBy, manager);
    else await this.invoices.pay(target.record, paidBy, manager);
    return updated!;
  }

  /**
   * The locked manual-capture attempt was authorized (docs/COLLECTION.md, "Manual capture"): the
   * charge `requires_capture` with the amount held until `expires_at` (AUTHORIZATION_LIFETIME_MS),
   * nothing booked to the ledger; the payment intent `requires_capture`; the checkout, if any,
   * complete with `payment_status: unpaid` (the buyer's part is done, the money is not collected).
   */
  async authorize(
    scope: Scope,
    checkout: Checkout | null,
    target: Target,
    charge: Charge,
    manager: EntityManager,
    providerFacts: Omit<Partial<Charge>, 'status'> = {},
  ): Promise<Charge> {
    if (target.type !== 'payment_intent') throw new Error(`charge ${charge.id}: only payment intents authorize`);
    const amount = Number(charge.amount);
    const authorized = await this.charges.transition(
      charge,
      'authorize',
      {
        ...providerFacts,
        amount_capturable: amount,
        captured: false,
        settlement_status: null,
        expires_at: new Date(this.clock.nowMs() + AUTHORIZATION_LIFETIME_MS),
        next_action: [],
      },
      manager,
    );
    await this.paymentIntents.authorize(target.record, { id: charge.id, amount }, manager);
    if (checkout) await this.checkouts.complete(scope, checkout, charge.id, manager, 'unpaid');
    return authorized;
  }

  /** The locked attempt failed: a payment intent waits for another payment method, with the failure. */
  async recordFailure(target: Target, charge: Charge, manager: EntityManager): Promise<void> {
    if (target.type !== 'payment_intent') return;
    const error = {
      code: charge.failure_code ?? 'card_declined',
      message: charge.failure_message ?? 'The payment failed.',
      charge: charge.id,
      decline_code: charge.failure_code === 'card_declined' ? charge.failure_reason : null,
    };
    await this.paymentIntents.fail(target.record, error, manager);
  }

  /** The provider took money for an attempt that could not be applied: it must be refunded or matched. */
  reconcileLater(provider: string, reference: string, chargeId: string): void {
    this.logger.error(
      `provider ${provider} accepted payment ${reference} for charge ${chargeId}, which could not be applied: ` +
        'refund or reconcile it with the provider',
    );
  }

  /** After the commit: revoke the session of a paid checkout, open the sandbox's dispute, build the answer. */
  async answer(principal: Principal, attempt: Attempt): Promise<CheckoutPaymentResponse> {
    const { checkout, charge } = attempt;
    const applicationId = principal.application.id;
    if (charge.status === 'succeeded' || charge.status === 'requires_capture') {
      await this.sessions.complete(checkout.session_id);
      if (attempt.dispute && principal.mode === 'test') {
        try {
          await this.hooks.sandboxDispute.emit({ principal, chargeId: charge.id });
        } catch (err) {
          this.logger.error({ err }, `sandbox dispute on charge ${charge.id} could not be opened`);
        }
      }
    }
    const fresh = (await this.charges.findById(applicationId, charge.id)) ?? charge;
    const invoice = fresh.invoice_id ? await this.targets.findInvoice(applicationId, fresh.invoice_id) : null;
    const redirect =
      (charge.status === 'succeeded' || charge.status === 'requires_capture') && checkout.success_url
        ? checkout.success_url.replaceAll('{CHECKOUT_ID}', checkout.id)
        : null;
    return {
      object: 'checkout_payment',
      checkout: this.checkouts.toResponse(principal, checkout),
      charge: await this.charges.toResponse(fresh, invoice ? toInvoiceResponse(invoice) : null),
      redirect_url: redirect,
    };
  }
}

/** How a target's card payment is captured: a payment intent says (`capture_method`), an invoice is captured at once. */
export function captureMethodOf(target: Target): 'automatic' | 'manual' {
  return target.type === 'payment_intent' ? target.record.capture_method : 'automatic';
}
