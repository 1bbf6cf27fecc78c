import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../../common/clock.js';
import type { Principal } from '../../../common/context/principal.js';
import { AppError } from '../../../common/errors/app-error.js';
import { CheckoutErrors } from '../checkout.errors.js';
import { toPaymentIntentResponse, type PaymentIntentResponse } from '../checkout.responses.js';
import type { CancelPaymentIntentDto, CapturePaymentIntentDto } from '../dto/payment-intent.dto.js';
import type { Charge } from '../entities/charge.entity.js';
import type { PaymentIntent } from '../entities/payment-intent.entity.js';
import type { ProviderAuthorizationResult } from '../../../providers/ports/collection.port.js';
import { PaymentIntentsService } from '../targets/payment-intents.service.js';
import { ChargeJournals } from './charge.journals.js';
import { ChargesService } from './charges.service.js';
import { CheckoutPaymentsService } from './checkout-payments.service.js';
import { PROVIDER_TIMEOUT_MS, reachProvider } from './provider-call.js';
import { CollectionProviders } from './providers/collection-providers.js';

/**
 * What a capture or a void claimed, in the transaction that claimed it: the authorized charge,
 * its intent, and the amount to capture (0: a void). The claim is the charge's
 * `capture_claim_amount` and `capture_claimed_at` with the intent `processing`: a second capture
 * sees it and is refused, and a capture whose provider call failed (or whose process died) is
 * resumed with the same amount by the next capture or cancel.
 */
interface Claim {
  applicationId: string;
  intentId: string;
  charge: Charge;
  amount: number;
  /** A void's `cancellation_reason` (`automatic`: the authorization expired). */
  reason: string | null;
  expired: boolean;
}

/** A void claims with amount 0. */
const VOID = 0;

/**
 * Authorize, then capture (docs/COLLECTION.md, "Manual capture"): `POST /payment_intents/{id}/capture`,
 * `POST /payment_intents/{id}/cancel` of an authorization, and the expiry job's void. Each is three
 * steps, as a payment is: claim the authorization (charge then intent locked for a short
 * transaction), call the provider with no transaction open and no row locked, record its answer in
 * a new transaction (the ledger posting of a capture, or the void).
 */
@Injectable()
export class PaymentCapturesService {
  constructor(
    private readonly payments: CheckoutPaymentsService,
    private readonly intents: PaymentIntentsService,
    private readonly charges: ChargesService,
    private readonly journals: ChargeJournals,
    private readonly providers: CollectionProviders,
    private readonly clock: Clock,
  ) {}

  /** Captures `amount_to_capture` (default: all) of the intent's authorization; the rest is released. */
  async capture(principal: Principal, id: string, dto: CapturePaymentIntentDto): Promise<PaymentIntentResponse> {
    const applicationId = principal.application.id;
    const { latest_charge: chargeId } = await this.intents.find(applicationId, id);
    const claim = await this.payments.transaction((manager) =>
      this.claimCapture(applicationId, id, chargeId, dto.amount_to_capture, manager),
    );
    return this.finish(claim);
  }

  /**
   * Cancels the intent: an authorization it holds is voided at the provider first (all of it
   * released); an intent without one is canceled as before (PaymentIntentsService.cancel).
   */
  async cancel(principal: Principal, id: string, dto: CancelPaymentIntentDto): Promise<PaymentIntentResponse> {
    const applicationId = principal.application.id;
    const reason = dto.cancellation_reason ?? null;
    const pi = await this.intents.find(applicationId, id);
    const claim =
      pi.capture_method === 'manual' && pi.latest_charge
        ? await this.payments.transaction((manager) =>
            this.claimVoid(applicationId, id, pi.latest_charge!, reason, manager),
          )
        : null;
    if (!claim) return this.intents.cancel(principal, id, dto);
    return this.finish(claim);
  }

  /**
   * The expiry job's void of one authorization past its hold (`charge.expired`, the intent
   * `canceled` with `cancellation_reason: automatic`). Answers whether it was voided now.
   */
  async expire(charge: Charge, now: Date): Promise<boolean> {
    const claim = await this.payments.transaction(async (manager) => {
      const locked = await this.charges.lockById(charge.application_id, charge.id, manager);
      if (locked?.status !== 'requires_capture' || !locked.expires_at || locked.expires_at > now) return null;
      return this.claimExpiry(locked, manager);
    });
    if (!claim) return false;
    await this.finish(claim);
    return true;
  }

  /**
   * Test mode's `POST /test_helpers/payment_intents/{id}/expire_authorization`: the intent's
   * authorization ends now, as its hold running out would, and is voided by the expiry job's path
   * (`charge.expired`, the intent `canceled` with `cancellation_reason: automatic`).
   */
  async expireNow(principal: Principal, id: string): Promise<PaymentIntentResponse> {
    const applicationId = principal.application.id;
    const { latest_charge: chargeId } = await this.intents.find(applicationId, id);
    const claim = await this.payments.transaction(async (manager) => {
      const charge = chargeId ? await this.charges.lockById(applicationId, chargeId, manager) : null;
      const pi = await this.intents.lock(applicationId, id, manager);
      if (pi.status === 'canceled' && pi.cancellation_reason === 'automatic') {
        throw new AppError(CheckoutErrors.E7104, `The authorization of payment intent "${id}" already expired.`);
      }
      if (
        pi.capture_method !== 'manual' ||
        charge?.status !== 'requires_capture' ||
        pi.latest_charge !== charge.id ||
        charge.payment_intent !== id
      ) {
        throw new AppError(CheckoutErrors.E7101, `Payment intent "${id}" is ${pi.status}: it holds no authorization.`);
      }
      const now = this.clock.now();
      if (!charge.expires_at || charge.expires_at > now) {
        await this.charges.recordProviderFacts(charge, { expires_at: now }, manager);
      }
      const claimed = await this.claimExpiry(charge, manager);
      if (!claimed) throw new AppError(CheckoutErrors.E7100, `A capture of payment intent "${id}" is in progress.`);
      return claimed;
    });
    return this.finish(claim);
  }

  /**
   * The stuck-claim job's recovery of one claim whose call failed or whose process died: the claim
   * is taken over (stamped now, so a capture meanwhile sees it in progress), the provider is read
   * back with no lock held, and the claim is completed as the provider did it (captured: booked;
   * voided or gone: voided) or released (still authorized: the intent `requires_capture` again,
   * to be captured or canceled anew). Answers what was done, or null when the claim moved on.
   */
  async resumeStuck(charge: Charge): Promise<'completed' | 'released' | null> {
    const taken = await this.payments.transaction(async (manager) => {
      const locked = await this.charges.lockById(charge.application_id, charge.id, manager);
      if (locked?.status !== 'requires_capture' || locked.capture_claim_amount === null || !this.resumable(locked)) {
        return null;
      }
      const pi = await this.intents.lock(locked.application_id, locked.payment_intent!, manager);
      const amount = Number(locked.capture_claim_amount);
      const expired = amount === VOID && locked.expires_at !== null && locked.expires_at <= this.clock.now();
      return this.claim(pi, locked, amount, null, expired, manager);
    });
    if (!taken) return null;
    const { charge: claimed } = taken;
    const state = await reachProvider(() =>
      this.providers.named(claimed.provider!).readAuthorization({
        applicationId: taken.applicationId,
        chargeId: claimed.id,
        chargeReference: claimed.reference_id!,
        amount: Number(claimed.amount),
        currency: claimed.currency,
        livemode: claimed.livemode,
      }),
    );
    return this.payments.transaction(async (manager) => {
      if (state.status !== 'authorized') {
        await this.record(taken, state, manager);
        return 'completed';
      }
      const locked = await this.charges.lockById(taken.applicationId, claimed.id, manager);
      const pi = await this.intents.lock(taken.applicationId, taken.intentId, manager);
      if (locked?.status !== 'requires_capture' || locked.capture_claim_amount === null) return null;
      await this.charges.recordProviderFacts(locked, { capture_claim_amount: null, capture_claimed_at: null }, manager);
      if (pi.status === 'processing') {
        await this.intents.authorize(pi, { id: locked.id, amount: Number(locked.amount_capturable) }, manager);
      }
      return 'released';
    });
  }

  /** The expiry's void claim of a locked authorization; null when a capture (or a live void call) holds it. */
  private async claimExpiry(locked: Charge, manager: EntityManager): Promise<Claim | null> {
    // A capture's claim is the merchant's to resume; a void's whose call failed is the job's.
    const claimed = locked.capture_claim_amount === null ? null : Number(locked.capture_claim_amount);
    if (claimed !== null && (claimed !== VOID || !this.resumable(locked))) return null;
    const pi = await this.intents.lock(locked.application_id, locked.payment_intent!, manager);
    return this.claim(pi, locked, VOID, 'automatic', true, manager);
  }

  /** The intent's latest charge was read before: locks go charge, then intent, as a payment takes them. */
  private async claimCapture(
    applicationId: string,
    id: string,
    chargeId: string | null,
    wanted: number | undefined,
    manager: EntityManager,
  ): Promise<Claim> {
    const charge = chargeId ? await this.charges.lockById(applicationId, chargeId, manager) : null;
    const pi = await this.intents.lock(applicationId, id, manager);
    if (pi.status === 'succeeded')
      throw new AppError(CheckoutErrors.E7100, `Payment intent "${id}" was already captured.`);
    if (pi.status === 'canceled' && pi.cancellation_reason === 'automatic') {
      throw new AppError(CheckoutErrors.E7104, `The authorization of payment intent "${id}" expired and was voided.`);
    }
    if (pi.capture_method !== 'manual' || !charge || pi.latest_charge !== charge.id) {
      throw new AppError(CheckoutErrors.E7101, `Payment intent "${id}" is ${pi.status}: it holds no authorization.`);
    }
    if (pi.status === 'processing' && charge.status === 'requires_capture' && charge.capture_claim_amount !== null) {
      const claimed = Number(charge.capture_claim_amount);
      if (claimed === VOID) throw new AppError(CheckoutErrors.E7101, `Payment intent "${id}" is being canceled.`);
      if (!this.resumable(charge)) {
        throw new AppError(CheckoutErrors.E7100, `A capture of payment intent "${id}" is in progress.`);
      }
      return this.claim(pi, charge, claimed, null, false, manager);
    }
    if (pi.status !== 'requires_capture' || charge.status !== 'requires_capture') {
      throw new AppError(CheckoutErrors.E7101, `Payment intent "${id}" is ${pi.status}: it holds no authorization.`);
    }
    if (charge.expires_at && charge.expires_at <= this.clock.now()) {
      throw new AppError(CheckoutErrors.E7104, `The authorization of payment intent "${id}" expired.`);
    }
    const capturable = Number(charge.amount_capturable);
    const amount = wanted ?? capturable;
    if (amount > capturable) {
      throw new AppError(
        CheckoutErrors.E7102,
        `amount_to_capture ${amount} is more than amount_capturable ${capturable}.`,
      );
    }
    this.assertCoversFees(pi, charge, amount);
    return this.claim(pi, charge, amount, null, false, manager);
  }

  /** A destination's share must stay positive after the application fee and the provider's fee on what is captured. */
  private assertCoversFees(pi: PaymentIntent, charge: Charge, amount: number): void {
    const appFee = pi.transfer_destination ? Number(pi.application_fee_amount) : 0;
    const fee = this.providers.named(charge.provider!).fee('card', amount, charge.currency);
    if (appFee + fee >= amount) {
      throw new AppError(
        CheckoutErrors.E7102,
        `amount_to_capture ${amount} does not cover the application fee ${appFee} and the provider fee ${fee}.`,
      );
    }
  }

  private async claimVoid(
    applicationId: string,
    id: string,
    chargeId: string,
    reason: string | null,
    manager: EntityManager,
  ): Promise<Claim | null> {
    const charge = await this.charges.lockById(applicationId, chargeId, manager);
    const pi = await this.intents.lock(applicationId, id, manager);
    if (charge?.status !== 'requires_capture' || pi.latest_charge !== charge.id) return null;
    if (charge.capture_claim_amount !== null) {
      if (!this.resumable(charge)) {
        throw new AppError(CheckoutErrors.E7016, `A capture of payment intent "${id}" is in progress.`);
      }
      // A claim nobody is calling for: resumed as it was (a capture stays a capture).
      const claimed = Number(charge.capture_claim_amount);
      return this.claim(pi, charge, claimed, claimed === VOID ? reason : null, false, manager);
    }
    return this.claim(pi, charge, VOID, reason, false, manager);
  }

  /** Nobody is calling the provider for this claim: its call failed, or its process died (PROVIDER_TIMEOUT_MS). */
  private resumable(charge: Charge): boolean {
    return (
      charge.capture_claimed_at === null ||
      this.clock.nowMs() - charge.capture_claimed_at.getTime() >= PROVIDER_TIMEOUT_MS
    );
  }

  private async claim(
    pi: PaymentIntent,
    charge: Charge,
    amount: number,
    reason: string | null,
    expired: boolean,
    manager: EntityManager,
  ): Promise<Claim> {
    await this.charges.recordProviderFacts(
      charge,
      { capture_claim_amount: amount, capture_claimed_at: this.clock.now() },
      manager,
    );
    if (pi.status === 'requires_capture') await this.intents.beginCapture(pi, manager);
    return { applicationId: pi.application_id, intentId: pi.id, charge, amount, reason, expired };
  }

  /** Phases 2 and 3: the provider, then its answer recorded; a provider that no longer holds the authorization is E7104. */
  private async finish(claim: Claim): Promise<PaymentIntentResponse> {
    const result = await this.callProvider(claim);
    const pi = await this.payments.transaction((manager) => this.record(claim, result, manager));
    if (result.status === 'failed' && !claim.expired && claim.amount !== VOID) {
      throw new AppError(
        CheckoutErrors.E7104,
        `The provider no longer holds the authorization of payment intent "${claim.intentId}" (${result.failure?.message ?? 'voided'}): it was voided.`,
      );
    }
    return toPaymentIntentResponse(pi);
  }

  /** No transaction open, no row locked. A provider that fails to answer leaves the claim for a resend (E5002). */
  private async callProvider(claim: Claim): Promise<ProviderAuthorizationResult> {
    const { charge } = claim;
    const provider = this.providers.named(charge.provider!);
    const request = {
      applicationId: claim.applicationId,
      chargeId: charge.id,
      chargeReference: charge.reference_id!,
      amount: Number(charge.amount),
      currency: charge.currency,
      livemode: charge.livemode,
    };
    try {
      return await reachProvider(() =>
        claim.amount === VOID
          ? provider.voidAuthorization(request)
          : provider.captureAuthorization({ ...request, amountToCapture: claim.amount }),
      );
    } catch (err) {
      await this.payments.transaction(async (manager) => {
        const locked = await this.charges.lockById(claim.applicationId, charge.id, manager);
        if (locked?.status === 'requires_capture' && locked.capture_claim_amount !== null) {
          await this.charges.recordProviderFacts(locked, { capture_claimed_at: null }, manager);
        }
      });
      throw err;
    }
  }

  /** Phase 3: the provider's answer, unless another call already recorded this claim's. */
  private async record(
    claim: Claim,
    result: ProviderAuthorizationResult,
    manager: EntityManager,
  ): Promise<PaymentIntent> {
    const charge = await this.charges.lockById(claim.applicationId, claim.charge.id, manager);
    const pi = await this.intents.lock(claim.applicationId, claim.intentId, manager);
    if (charge?.status !== 'requires_capture' || charge.capture_claim_amount === null) return pi;
    if (result.status === 'captured') {
      await this.book(pi, charge, result, manager);
      return pi;
    }
    const authorized = Number(charge.amount);
    const now = this.clock.now();
    const expired = claim.expired || result.status === 'failed';
    await this.charges.transition(
      charge,
      'void',
      {
        canceled: true,
        canceled_at: now,
        amount_capturable: 0,
        amount_voided: authorized,
        capture_claim_amount: null,
        capture_claimed_at: null,
      },
      manager,
      expired ? 'charge.expired' : undefined,
    );
    return this.intents.cancelLocked(pi, expired ? 'automatic' : claim.reason, manager);
  }

  /**
   * A capture the provider made: ONE journal of the captured amount (fees on it, as any card
   * charge: charge.journals.ts), the charge `succeeded` with `amount` = what was captured and the
   * rest `amount_voided`, the intent `succeeded` with `amount_received`.
   */
  private async book(pi: PaymentIntent, charge: Charge, result: ProviderAuthorizationResult, manager: EntityManager) {
    const captured = result.amountCaptured;
    const authorized = Number(charge.amount);
    const fee = this.providers.named(charge.provider!).fee('card', captured, charge.currency);
    const destination = pi.transfer_destination;
    const applicationFee = destination ? Number(pi.application_fee_amount) : 0;
    const booked = await this.journals.postSucceededCharge(
      { ...charge, amount: captured } as Charge,
      fee,
      destination,
      applicationFee,
      manager,
    );
    await this.charges.transition(
      charge,
      'capture',
      {
        amount: captured,
        paid: true,
        captured: true,
        amount_captured: captured,
        amount_capturable: 0,
        amount_voided: authorized - captured,
        capture_claim_amount: null,
        capture_claimed_at: null,
        balance_id: booked.balance_id,
        net_amount: captured - fee,
        provider_fee_amount: fee,
        application_fee_amount: applicationFee,
        payable_amount: booked.net,
        settlement_status: 'settled',
        transfer_data: booked.transfer_data,
        application: destination ? pi.application_id : null,
        application_fee: booked.application_fee_entry,
        transfer: booked.transfer_entry,
        on_behalf_of: destination,
      },
      manager,
    );
    await this.intents.succeed(pi, { id: charge.id, amount: captured }, manager);
  }
}
