import { Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../../common/clock.js';
import type { Principal, Scope } from '../../../common/context/principal.js';
import { EventRecorder } from '../../../common/events/event-recorder.js';
import { AppError } from '../../../common/errors/app-error.js';
import { Errors } from '../../../common/errors/error-catalog.js';
import { SessionsService } from '../../auth/index.js';
import { ChargeHooks } from './charge-hooks.js';
import { NEW_CHARGE_STATUS } from './charge.transitions.js';
import { checkoutTransition } from '../checkouts/checkout.transitions.js';
import { invoiceTransition } from '../targets/invoice.transitions.js';
import { paymentIntentTransition } from '../targets/payment-intent.transitions.js';
import { ChargesService } from './charges.service.js';
import type { ChargeResponse } from './charges.responses.js';
import type { Charge } from '../entities/charge.entity.js';
import { CheckoutsService, effectiveStatus } from '../checkouts/checkouts.service.js';
import { CheckoutErrors } from '../checkout.errors.js';
import { CollectionRepository } from '../checkout.repository.js';
import { toInvoiceResponse, toPaymentIntentResponse, type CheckoutResponse } from '../checkout.responses.js';
import { PROMPTPAY_QR_LIFETIME_MS } from '../checkout-rules.js';
import {
  CollectionProviderError,
  type PaymentMethodType,
  type PaymentRequest,
  type ProviderPayment,
} from '../../../providers/ports/collection.port.js';
import type { ConfirmCheckoutDto } from '../dto/checkout.dto.js';
import { Checkout } from '../entities/checkout.entity.js';
import { Invoice } from '../entities/invoice.entity.js';
import { PaymentIntent } from '../entities/payment-intent.entity.js';
import { CardTokensService } from './card-tokens.service.js';
import { AccountsService } from '../../accounts/index.js';
import { CollectionProviders } from './providers/collection-providers.js';
import { SettlementService } from './settlement.service.js';
import { TargetsService, type Target } from '../targets/targets.service.js';

/** How long a payment attempt waits for its provider before it is abandoned (and may be retried). */
const PROVIDER_TIMEOUT_MS = 30_000;

/** What the hosted page gets back from a payment attempt. */
export interface CheckoutPaymentResponse {
  object: 'checkout_payment';
  checkout: CheckoutResponse;
  charge: ChargeResponse;
  /** Where the page sends the buyer now: the success_url once paid, else null. */
  redirect_url: string | null;
}

interface Attempt {
  checkout: Checkout;
  charge: Charge;
  /** Sandbox: open a dispute right after the commit. */
  dispute: boolean;
}

/**
 * Paying a checkout: card or PromptPay through the provider serving the checkout's country, one
 * database transaction per attempt (checkout and target locked, so two attempts cannot both
 * succeed), and on success the ledger posting, the target marked paid and the session revoked.
 */
@Injectable()
export class PaymentsService {
  private readonly logger = new Logger(PaymentsService.name);

  constructor(
    private readonly repository: CollectionRepository,
    private readonly checkouts: CheckoutsService,
    private readonly targets: TargetsService,
    private readonly charges: ChargesService,
    private readonly settlement: SettlementService,
    private readonly providers: CollectionProviders,
    private readonly sessions: SessionsService,
    private readonly hooks: ChargeHooks,
    private readonly events: EventRecorder,
    private readonly clock: Clock,
    private readonly cardTokens: CardTokensService,
    private readonly accounts: AccountsService,
  ) {}

  async confirm(principal: Principal, id: string, dto: ConfirmCheckoutDto): Promise<CheckoutPaymentResponse> {
    assertSessionTarget(principal, id);
    const type = dto.payment_method_type as PaymentMethodType;
    const token = type === 'card' ? dto.token : null;
    if (type === 'card' && !token) {
      throw new AppError(
        CheckoutErrors.E7008,
        'token is required for payment_method_type "card" (tokenize the card first: POST /api/v1/{app}/vault/tokens in test mode).',
      );
    }
    if (type !== 'card' && dto.token !== undefined) {
      throw new AppError(CheckoutErrors.E7008, 'token is only sent with payment_method_type "card".');
    }
    const applicationId = principal.application.id;
    // 1. Record the attempt: the checkout and its target are locked only for this short transaction.
    const recorded = await this.repository.transaction(async (manager) => {
      const checkout = await this.lockPayable(applicationId, id, manager);
      if (!checkout.payment_method_types.includes(type)) {
        throw new AppError(
          CheckoutErrors.E7007,
          `payment_method_type "${type}" is not allowed (allowed: ${checkout.payment_method_types.join(', ')}).`,
        );
      }
      const target = await this.lockTarget(checkout, manager);
      const provider = this.providers.forCountry(checkout.country, principal.livemode);
      const now = this.clock.now();
      if (checkout.pending_charge_id) await this.replacePending(checkout, now, manager);
      // A test-only provider (the sandbox) charges this service's vault tokens: the token is used
      // up here, with the checkout locked; any other provider gets its own token as it came.
      const vaultCard =
        token && provider.testOnly === true ? await this.cardTokens.consume(applicationId, id, token, manager) : null;
      const { charge, paymentMethod } = await this.newAttempt(
        checkout,
        target,
        provider.name,
        type,
        now,
        manager,
        vaultCard,
      );
      const transfer = { destination: checkout.transfer_destination, fee: Number(checkout.application_fee_amount) };
      return { charge, provider, paymentMethodId: paymentMethod.id, vaultCard, transfer };
    });

    // 2. Call the provider with no transaction open and no row locked.
    const request: PaymentRequest = {
      applicationId,
      chargeId: recorded.charge.id,
      amount: Number(recorded.charge.amount),
      currency: recorded.charge.currency,
      scalingFactor: recorded.charge.scaling_factor,
      livemode: principal.livemode,
    };
    const qrExpiry = new Date(this.clock.nowMs() + PROMPTPAY_QR_LIFETIME_MS);
    let result: ProviderPayment;
    try {
      request.destination = await this.destinationOf(
        applicationId,
        recorded.transfer,
        recorded.provider.name,
        principal.livemode,
      );
      result = await reachProvider(() =>
        token
          ? recorded.provider.chargeCard(request, token, recorded.vaultCard ?? undefined)
          : recorded.provider.createPromptPay(request, qrExpiry),
      );
    } catch (err) {
      await this.abandon(applicationId, id, recorded.charge.id, err);
      throw err;
    }

    // 3. Apply the answer in a new transaction that checks the state again.
    const attempt = await this.repository.transaction(async (manager): Promise<Attempt | AppError> => {
      const checkout = await this.repository.find(Checkout, applicationId, id, manager, true);
      const charge = await this.charges.lockById(applicationId, recorded.charge.id, manager);
      if (!checkout || !charge || charge.status !== 'pending' || checkout.pending_charge_id !== charge.id) {
        if (result.status === 'succeeded')
          this.reconcileLater(recorded.provider.name, result.reference, recorded.charge.id);
        return new AppError(Errors.E4090, `The payment attempt on checkout "${id}" was overtaken; try again.`);
      }
      let target: Target;
      try {
        target = await this.lockTarget(checkout, manager);
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
        await this.clearPending(checkout, manager);
        if (result.status === 'succeeded') this.reconcileLater(recorded.provider.name, result.reference, charge.id);
        return refused;
      }
      if (result.status === 'succeeded') {
        const paid = await this.succeed(principal, checkout, target, charge, type, manager, {
          reference_id: result.reference,
        });
        return { checkout, charge: paid, dispute: result.disputeAfterSuccess === true };
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
        await this.clearPending(checkout, manager);
        await this.recordFailure(target, failed, manager);
        return { checkout, charge: failed, dispute: false };
      }
      // A card charge waiting for 3-D Secure: the payer goes to the provider's page, which sends
      // them back to GET /provider_returns/{provider}/{charge id} (ProviderReturnsController).
      const authorizeUri = (result as ProviderPayment & { authorizeUri?: string }).authorizeUri;
      const pending = await this.charges.recordProviderFacts(
        charge,
        {
          reference_id: result.reference,
          settlement_status: 'pending',
          expires_at: qrExpiry,
          promptpay: result.promptpay ?? null,
          next_action:
            authorizeUri && !result.promptpay
              ? [
                  {
                    type: 'redirect_to_url',
                    title: 'Authenticate the card',
                    description: "Complete 3-D Secure on the card issuer's page.",
                    i18n_key: 'next_action.redirect_to_url',
                    url: authorizeUri,
                    client_secret: null,
                    payment_method: recorded.paymentMethodId,
                    qr_data: null,
                  },
                ]
              : result.promptpay
                ? [
                    {
                      type: 'promptpay_display_qr',
                      title: 'Scan to pay with PromptPay',
                      description: 'Scan the QR code with a Thai banking app before it expires.',
                      i18n_key: 'next_action.promptpay_display_qr',
                      url: null,
                      client_secret: null,
                      payment_method: recorded.paymentMethodId,
                      qr_data: result.promptpay.raw,
                    },
                  ]
                : [],
        },
        manager,
      );
      await this.recordPending(checkout, target, pending, manager);
      return { checkout, charge: pending, dispute: false };
    });
    if (attempt instanceof AppError) throw attempt;
    return this.answer(principal, attempt);
  }

  /**
   * A destination charge's parameters: the connected account and the provider's own account of it
   * (Stripe Connect `acct_…`, null where the provider keeps none), with the application's fee. The
   * same for a confirm and for the Payment Element's PaymentIntent.
   */
  private async destinationOf(
    applicationId: string,
    transfer: { destination: string | null; fee: number },
    provider: string,
    livemode: boolean,
  ): Promise<PaymentRequest['destination']> {
    if (!transfer.destination) return undefined;
    const providerAccount = await this.accounts.providerAccount(
      applicationId,
      transfer.destination,
      provider,
      livemode,
    );
    return { account: transfer.destination, providerAccount, applicationFeeAmount: transfer.fee };
  }

  /**
   * The Stripe Payment Element's PaymentIntent for the hosted page (live card entry, docs/PROVIDERS.md):
   * an attempt is recorded as for a card confirm (checkout and target locked, a pending charge the
   * checkout waits on), the PaymentIntent created at the provider with no transaction open (keyed by
   * the charge id, so asking again answers the same intent), and its reference kept on the charge.
   * The page confirms it with Stripe.js and the outcome arrives at the 3-D Secure return route or by
   * webhook; this service never sees the card. A page opened again reuses the charge still waiting.
   */
  async prepareCardIntent(
    application: { id: string },
    livemode: boolean,
    checkoutId: string,
  ): Promise<{ client_secret: string; return_url: string }> {
    const applicationId = application.id;
    const recorded = await this.repository.transaction(async (manager) => {
      const checkout = await this.lockPayable(applicationId, checkoutId, manager);
      if (!checkout.payment_method_types.includes('card')) {
        throw new AppError(
          CheckoutErrors.E7007,
          `payment_method_type "card" is not allowed (allowed: ${checkout.payment_method_types.join(', ')}).`,
        );
      }
      const target = await this.lockTarget(checkout, manager);
      const provider = this.providers.forCountry(checkout.country, livemode);
      if (!isIntentProvider(provider)) {
        throw new AppError(
          CheckoutErrors.E7008,
          `The ${provider.name} provider takes cards by token: confirm with {payment_method_type: "card", token}.`,
        );
      }
      const now = this.clock.now();
      if (checkout.pending_charge_id) {
        const waiting = await this.charges.lockById(applicationId, checkout.pending_charge_id, manager);
        if (
          waiting?.status === 'pending' &&
          waiting.provider === provider.name &&
          !waiting.promptpay &&
          waiting.reference_id?.startsWith('pi_')
        ) {
          return { charge: waiting, provider, checkout };
        }
        await this.replacePending(checkout, now, manager);
      }
      const { charge } = await this.newAttempt(checkout, target, provider.name, 'card', now, manager);
      return { charge, provider, checkout };
    });
    const { charge, provider, checkout } = recorded;
    let intent: { reference: string; clientSecret: string; returnUrl: string };
    try {
      const destination = await this.destinationOf(
        applicationId,
        { destination: checkout.transfer_destination, fee: Number(checkout.application_fee_amount) },
        provider.name,
        livemode,
      );
      intent = await reachProvider(() =>
        provider.createCardIntent({
          applicationId,
          chargeId: charge.id,
          amount: Number(charge.amount),
          currency: charge.currency,
          scalingFactor: charge.scaling_factor,
          livemode,
          destination,
        }),
      );
    } catch (err) {
      if (charge.reference_id === null) await this.abandon(applicationId, checkoutId, charge.id, err);
      throw err;
    }
    if (charge.reference_id === null) {
      await this.repository.transaction(async (manager) => {
        const locked = await this.charges.lockById(applicationId, charge.id, manager);
        if (locked?.status !== 'pending' || locked.reference_id !== null) return;
        await this.charges.recordProviderFacts(
          locked,
          { reference_id: intent.reference, settlement_status: 'pending', next_action: [] },
          manager,
        );
      });
    }
    return { client_secret: intent.clientSecret, return_url: intent.returnUrl };
  }

  /** A new attempt on a locked checkout: its payment method and pending charge, the checkout pending on it. */
  private async newAttempt(
    checkout: Checkout,
    target: Target,
    providerName: string,
    type: PaymentMethodType,
    now: Date,
    manager: EntityManager,
    vaultCard: Awaited<ReturnType<CardTokensService['consume']>> | null = null,
  ) {
    const paymentMethod = await this.charges.createPaymentMethod(
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
            }
          : {}),
      },
      manager,
    );
    const charge = await this.charges.create(
      {
        application_id: checkout.application_id,
        country: checkout.country,
        status: NEW_CHARGE_STATUS,
        customer_id: checkout.customer_id,
        payment_method_id: paymentMethod.id,
        invoice_id: target.type === 'invoice' ? target.record.id : null,
        payment_intent: target.type === 'payment_intent' ? target.record.id : null,
        currency: checkout.currency,
        amount: Number(checkout.amount),
        scaling_factor: checkout.scaling_factor,
        amount_capturable: 0,
        provider: providerName,
        reference_id: null,
        next_action: [],
        metadata: target.record.metadata,
      },
      manager,
    );
    await this.repository.update(
      Checkout,
      checkout.application_id,
      checkout.id,
      { pending_charge_id: charge.id, updated_at: now },
      manager,
    );
    return { charge, paymentMethod };
  }

  /** The provider took money for an attempt that could not be applied: it must be refunded or matched. */
  private reconcileLater(provider: string, reference: string, chargeId: string): void {
    this.logger.error(
      `provider ${provider} accepted payment ${reference} for charge ${chargeId}, which could not be applied: ` +
        'refund or reconcile it with the provider',
    );
  }

  /**
   * A pending charge on the checkout when a new attempt starts: a PromptPay QR code still waiting is
   * canceled (the buyer chose again); an attempt still waiting for its provider is refused, unless
   * it has waited longer than a provider call may take (its process died: it is abandoned).
   */
  private async replacePending(checkout: Checkout, now: Date, manager: EntityManager) {
    const checkoutId = checkout.id;
    const replaced = await this.charges.lockById(checkout.application_id, checkout.pending_charge_id!, manager);
    if (replaced?.status !== 'pending') return;
    const inFlight = replaced.reference_id === null;
    if (inFlight && now.getTime() - replaced.created_at.getTime() < PROVIDER_TIMEOUT_MS) {
      throw new AppError(Errors.E4090, `A payment of checkout "${checkoutId}" is in progress.`);
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

  /** The provider did not answer (or answered an error): the attempt fails and the checkout can be paid again. */
  private async abandon(applicationId: string, checkoutId: string, chargeId: string, err: unknown): Promise<void> {
    try {
      await this.repository.transaction(async (manager) => {
        const checkout = await this.repository.find(Checkout, applicationId, checkoutId, manager, true);
        const charge = await this.charges.lockById(applicationId, chargeId, manager);
        if (!charge || charge.status !== 'pending') return;
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
      });
    } catch (cleanup) {
      // The charge stays pending; the next attempt on the checkout abandons it after PROVIDER_TIMEOUT_MS.
      this.logger.error({ err: cleanup }, `charge ${chargeId} could not be marked failed after its provider failed`);
    }
  }

  /** Also ChargeOutcomesService's (a provider's notice applied through the same steps). */
  async clearPending(checkout: Checkout, manager: EntityManager): Promise<void> {
    await this.repository.update(
      Checkout,
      checkout.application_id,
      checkout.id,
      { pending_charge_id: null, updated_at: this.clock.now() },
      manager,
    );
    checkout.pending_charge_id = null;
  }

  /** Test helper (and the hosted page in test mode): the buyer's bank pays the pending PromptPay QR code. */
  async payPromptPayForTest(principal: Principal, id: string): Promise<CheckoutPaymentResponse> {
    if (principal.credential.privilege === 'none') assertSessionTarget(principal, id);
    const applicationId = principal.application.id;
    // Ask the provider first, holding no lock; then apply its answer to the state as it is then.
    const seen = await this.payablePending(applicationId, id);
    const provider = this.providers.named(seen.provider ?? 'sandbox');
    const result = await reachProvider(() => provider.confirmPromptPay(seen.reference_id ?? ''));
    if (result.status !== 'succeeded') {
      throw new AppError(CheckoutErrors.E7018, `Charge "${seen.id}" is not paid yet.`);
    }
    const attempt = await this.repository.transaction(async (manager): Promise<Attempt> => {
      const checkout = await this.lockPayable(applicationId, id, manager);
      const pending = await this.charges.lockById(applicationId, seen.id, manager);
      if (!pending || pending.status !== 'pending' || checkout.pending_charge_id !== pending.id) {
        throw new AppError(CheckoutErrors.E7018, `Checkout "${id}" has no pending PromptPay charge.`);
      }
      const target = await this.lockTarget(checkout, manager);
      const charge = await this.succeed(principal, checkout, target, pending, 'promptpay', manager);
      return { checkout, charge, dispute: false };
    });
    return this.answer(principal, attempt);
  }

  /** The checkout's pending PromptPay charge, if the checkout can be paid and its QR code is still valid. */
  private async payablePending(applicationId: string, id: string): Promise<Charge> {
    const checkout = await this.repository.find(Checkout, applicationId, id);
    if (!checkout) throw new AppError(Errors.E4004, `No checkout with id "${id}".`);
    this.assertPayable(checkout);
    const pending = checkout.pending_charge_id
      ? await this.charges.findById(applicationId, checkout.pending_charge_id)
      : null;
    if (!pending || pending.status !== 'pending' || pending.reference_id === null) {
      throw new AppError(CheckoutErrors.E7018, `Checkout "${id}" has no pending PromptPay charge.`);
    }
    if (pending.expires_at && pending.expires_at.getTime() <= this.clock.nowMs()) {
      throw new AppError(CheckoutErrors.E7018, `The QR code of charge "${pending.id}" has expired.`);
    }
    return pending;
  }

  /** The checkout, locked, if it can still be paid: E7006 when complete, E7005 when expired. */
  private async lockPayable(applicationId: string, id: string, manager: EntityManager): Promise<Checkout> {
    const checkout = await this.repository.find(Checkout, applicationId, id, manager, true);
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

  async lockTarget(checkout: Checkout, manager: EntityManager): Promise<Target> {
    const target = await this.targets.load(
      checkout.application_id,
      checkout.target_type,
      checkout.target_id,
      manager,
      true,
    );
    this.targets.assertPayable(target, checkout.country);
    return target;
  }

  async succeed(
    scope: Scope,
    checkout: Checkout,
    target: Target,
    charge: Charge,
    method: PaymentMethodType,
    manager: EntityManager,
    providerFacts: Omit<Partial<Charge>, 'status'> = {},
  ): Promise<Charge> {
    const applicationId = checkout.application_id;
    const provider = this.providers.named(charge.provider ?? 'sandbox');
    const amount = Number(charge.amount);
    const fee = provider.fee(method, amount, charge.currency);
    const destination = checkout.transfer_destination;
    const applicationFee = destination ? Number(checkout.application_fee_amount) : 0;
    const booked = await this.settlement.postSucceededCharge(charge, fee, destination, applicationFee, manager);
    const now = this.clock.now();
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
        application: destination ? applicationId : null,
        application_fee: booked.application_fee_entry,
        transfer: booked.transfer_entry,
        on_behalf_of: destination,
      },
      manager,
    );
    const checkoutStatus = checkoutTransition(checkout.status, 'complete', checkout.id);
    const checkoutBefore = {
      status: checkout.status,
      payment_status: checkout.payment_status,
      completed_at: null,
      charge_id: checkout.charge_id,
      updated_at: checkout.updated_at.toISOString(),
    };
    const checkoutChanges = {
      payment_status: 'paid' as const,
      completed_at: now,
      charge_id: charge.id,
      pending_charge_id: null,
      updated_at: now,
    };
    await this.repository.writeStatus(Checkout, applicationId, checkout.id, checkoutStatus, checkoutChanges, manager);
    Object.assign(checkout, checkoutChanges, { status: checkoutStatus });
    if (target.type === 'payment_intent') {
      const status = paymentIntentTransition(target.record.status, 'succeed', target.record.id);
      const changes = {
        amount_received: amount,
        latest_charge: charge.id,
        last_payment_error: null,
        succeeded_at: now,
        updated_at: now,
      };
      await this.repository.writeStatus(PaymentIntent, applicationId, target.record.id, status, changes, manager);
      await this.events.record(manager, {
        applicationId,
        type: 'payment_intent.succeeded',
        object: toPaymentIntentResponse({ ...target.record, ...changes, status } as PaymentIntent),
        previous_attributes: { status: target.record.status },
      });
    } else {
      const status = invoiceTransition(target.record.status, 'pay', target.record.id);
      const changes = { amount_paid: amount, charge_id: charge.id, paid_at: now, updated_at: now };
      await this.repository.writeStatus(Invoice, applicationId, target.record.id, status, changes, manager);
      await this.events.record(manager, {
        applicationId,
        type: 'invoice.paid',
        object: toInvoiceResponse({ ...target.record, ...changes, status } as Invoice),
        previous_attributes: { status: target.record.status },
      });
    }
    await this.events.record(manager, {
      applicationId,
      type: 'checkout.completed',
      object: this.checkouts.toResponse(scope, checkout),
      previous_attributes: checkoutBefore,
    });
    return updated!;
  }

  async recordFailure(target: Target, charge: Charge, manager: EntityManager): Promise<void> {
    if (target.type !== 'payment_intent') return;
    const status = paymentIntentTransition(target.record.status, 'fail', target.record.id);
    const changes = {
      latest_charge: charge.id,
      last_payment_error: {
        code: charge.failure_code ?? 'card_declined',
        message: charge.failure_message ?? 'The payment failed.',
        charge: charge.id,
      },
      updated_at: this.clock.now(),
    };
    await this.repository.writeStatus(PaymentIntent, charge.application_id, target.record.id, status, changes, manager);
    await this.events.record(manager, {
      applicationId: charge.application_id,
      type: 'payment_intent.payment_failed',
      object: toPaymentIntentResponse({ ...target.record, ...changes, status } as PaymentIntent),
      previous_attributes: { status: target.record.status },
    });
  }

  private async recordPending(checkout: Checkout, target: Target, charge: Charge, manager: EntityManager) {
    const applicationId = checkout.application_id;
    const now = this.clock.now();
    await this.repository.update(
      Checkout,
      applicationId,
      checkout.id,
      { pending_charge_id: charge.id, updated_at: now },
      manager,
    );
    checkout.pending_charge_id = charge.id;
    if (target.type === 'payment_intent') {
      await this.repository.writeStatus(
        PaymentIntent,
        applicationId,
        target.record.id,
        paymentIntentTransition(target.record.status, 'process', target.record.id),
        { latest_charge: charge.id, updated_at: now },
        manager,
      );
    }
  }

  /** After the commit: revoke the session of a paid checkout, open the sandbox's dispute, build the answer. */
  private async answer(principal: Principal, attempt: Attempt): Promise<CheckoutPaymentResponse> {
    const { checkout, charge } = attempt;
    const applicationId = principal.application.id;
    if (charge.status === 'succeeded') {
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
    const invoice = fresh.invoice_id ? await this.repository.find(Invoice, applicationId, fresh.invoice_id) : null;
    const redirect =
      charge.status === 'succeeded' && checkout.success_url
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

/**
 * A provider that fails to answer, or takes longer than PROVIDER_TIMEOUT_MS, is a 502 E5002. The
 * caller holds no lock while it waits; the attempt it recorded is marked failed.
 */
async function reachProvider<T>(call: () => Promise<T>): Promise<T> {
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

function assertSessionTarget(principal: Principal, checkoutId: string): void {
  if (principal.credential.session && principal.credential.session.targetId !== checkoutId) {
    throw new AppError(Errors.E1300, 'This one-time session belongs to another checkout.');
  }
}

/** A provider whose card payments the browser confirms (Stripe's Payment Element): it makes the intent first. */
interface IntentProvider {
  name: string;
  createCardIntent(request: PaymentRequest): Promise<{ reference: string; clientSecret: string; returnUrl: string }>;
}

function isIntentProvider(provider: object): provider is IntentProvider {
  return typeof (provider as Partial<IntentProvider>).createCardIntent === 'function';
}
