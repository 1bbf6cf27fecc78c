import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { ApplicationRef, Mode } from '../../../common/context/principal.js';
import { EventRecorder } from '../../../common/events/event-recorder.js';
import type { JobScope } from '../../../common/jobs/job-scope.js';
import { PeriodicJob } from '../../../common/jobs/periodic-job.js';
import { ApplicationsService } from '../../applications/index.js';
import { ChargesService } from '../payments/charges.service.js';
import { checkoutTransition } from './checkout.transitions.js';
import { paymentIntentTransition } from '../targets/payment-intent.transitions.js';
import { CollectionRepository } from '../checkout.repository.js';
import { toCheckoutResponse, toPaymentIntentResponse } from '../checkout.responses.js';
import { Checkout } from '../entities/checkout.entity.js';
import { PaymentIntent } from '../entities/payment-intent.entity.js';
import { HostedUrls } from './hosted-urls.js';

const INTERVAL_MS = 15_000;
const BATCH = 100;

/**
 * How a pending PromptPay charge fails when nobody paid it in time: `failure_code` is `expired`
 * (as the checkout's own status), `failure_reason` says what ran out first.
 */
export const EXPIRED_PROMPTPAY = {
  code: 'expired',
  qr: { reason: 'qr_code_expired', message: 'The PromptPay QR code expired before it was paid.' },
  checkout: { reason: 'checkout_expired', message: 'The checkout expired before the PromptPay QR code was paid.' },
} as const;

export interface ExpirySweep {
  checkouts_expired: number;
  charges_failed: number;
}

/**
 * Makes expiry real in the stored rows, every 15 s in both mode schemas: open checkouts past
 * `expires_at` become `expired`, and pending PromptPay charges whose QR code (or checkout) expired
 * become `failed` (failure_code `expired`), their payment intent back to `requires_payment_method`.
 * Nothing is posted: a pending charge has booked nothing. Safe with several replicas: each batch
 * claims its checkouts with FOR UPDATE SKIP LOCKED and changes them, their pending charge and their
 * payment intent in one transaction, taking locks in the order payments take them (checkout, charge,
 * target). `expireLocked` is also the test helper's, so both leave the same state.
 */
@Injectable()
export class CheckoutExpiryService extends PeriodicJob {
  constructor(
    private readonly repository: CollectionRepository,
    private readonly charges: ChargesService,
    private readonly events: EventRecorder,
    private readonly applications: ApplicationsService,
    private readonly urls: HostedUrls,
  ) {
    super(INTERVAL_MS);
  }

  protected runOnce(): Promise<unknown> {
    return this.sweep(this.clock.now());
  }

  /** One sweep of everything expired at `now`, batch after batch, in both modes (or `scope`). */
  async sweep(now: Date, scope: JobScope = {}): Promise<ExpirySweep> {
    const result: ExpirySweep = { checkouts_expired: 0, charges_failed: 0 };
    for (const mode of scope.modes ?? (['test', 'live'] as Mode[])) {
      await this.context.runInMode(mode, async () => {
        // The applications of what is due, read before the batches lock anything (their
        // checkout.expired events carry the page URL, which names the application's slug).
        const due = await this.repository.applicationsWithExpiredCheckouts(now, scope.applicationIds ?? null);
        const applications = due.length > 0 ? await this.applications.byIds(due) : new Map<string, ApplicationRef>();
        for (const what of ['checkouts', 'qr_codes'] as const) {
          await this.untilDrained(BATCH, () =>
            this.sweepBatch(what, now, scope.applicationIds ?? null, applications, result),
          );
        }
      });
    }
    return result;
  }

  /**
   * Expires a checkout locked by `manager`'s transaction as of `expiredAt` (its `expires_at`, or
   * earlier for the test helper) and fails its pending PromptPay charge.
   */
  async expireLocked(
    application: ApplicationRef,
    checkout: Checkout,
    expiredAt: Date,
    manager: EntityManager,
  ): Promise<{ chargeFailed: boolean }> {
    const before = { status: checkout.status, expires_at: checkout.expires_at.toISOString(), expired_at: null };
    const chargeFailed = checkout.pending_charge_id ? await this.failPending(checkout, expiredAt, manager) : false;
    const status = checkoutTransition(checkout.status, 'expire', checkout.id);
    const changes = {
      expires_at: expiredAt,
      expired_at: expiredAt,
      pending_charge_id: null,
      updated_at: this.clock.now(),
    };
    await this.repository.writeStatus(Checkout, checkout.application_id, checkout.id, status, changes, manager);
    Object.assign(checkout, changes, { status });
    await this.events.record(manager, {
      applicationId: checkout.application_id,
      type: 'checkout.expired',
      object: toCheckoutResponse(checkout, this.urls.checkout(application.slug, checkout.id)),
      previous_attributes: before,
    });
    return { chargeFailed };
  }

  /** Claims up to BATCH checkouts with work to do, skipping those another transaction holds. */
  private sweepBatch(
    what: 'checkouts' | 'qr_codes',
    now: Date,
    applicationIds: readonly string[] | null,
    applications: Map<string, ApplicationRef>,
    result: ExpirySweep,
  ): Promise<number> {
    return this.repository.transaction(async (manager) => {
      const claimed = await this.repository.claimExpiring(manager, what, now, applicationIds, BATCH);
      for (const checkout of claimed) {
        if (what === 'checkouts') {
          const application = applications.get(checkout.application_id);
          // Due after the applications were read (only a clock moved back does that): the next sweep expires it.
          if (!application) throw new Error(`checkout ${checkout.id} came due during the expiry sweep`);
          const { chargeFailed } = await this.expireLocked(application, checkout, checkout.expires_at, manager);
          result.checkouts_expired += 1;
          if (chargeFailed) result.charges_failed += 1;
        } else if (await this.failPending(checkout, null, manager)) {
          await this.repository.update(
            Checkout,
            checkout.application_id,
            checkout.id,
            { pending_charge_id: null, updated_at: this.clock.now() },
            manager,
          );
          result.charges_failed += 1;
        }
      }
      return claimed.length;
    });
  }

  /**
   * Fails the locked checkout's pending charge, if it is still pending, as the buyer's bank never
   * paid it; a payment intent waiting on it (`processing`, this charge its latest) goes back to
   * `requires_payment_method` with the failure as `last_payment_error`, like a declined card.
   * `checkoutExpiredAt` null: only the QR code ran out.
   */
  private async failPending(checkout: Checkout, checkoutExpiredAt: Date | null, manager: EntityManager) {
    const applicationId = checkout.application_id;
    const charge = await this.charges.lockById(applicationId, checkout.pending_charge_id!, manager);
    if (!charge || charge.status !== 'pending') return false;
    const qrFirst =
      checkoutExpiredAt === null || (charge.expires_at !== null && charge.expires_at <= checkoutExpiredAt);
    const why = qrFirst ? EXPIRED_PROMPTPAY.qr : EXPIRED_PROMPTPAY.checkout;
    await this.charges.transition(
      charge,
      'fail',
      {
        failure_code: EXPIRED_PROMPTPAY.code,
        failure_reason: why.reason,
        failure_message: why.message,
        settlement_status: null,
        next_action: [],
      },
      manager,
    );
    if (checkout.target_type === 'payment_intent') {
      const pi = await this.repository.find(PaymentIntent, applicationId, checkout.target_id, manager, true);
      if (pi && pi.status === 'processing' && pi.latest_charge === charge.id) {
        const status = paymentIntentTransition(pi.status, 'fail', pi.id);
        const changes = {
          last_payment_error: { code: EXPIRED_PROMPTPAY.code, message: why.message, charge: charge.id },
          updated_at: this.clock.now(),
        };
        await this.repository.writeStatus(PaymentIntent, applicationId, pi.id, status, changes, manager);
        await this.events.record(manager, {
          applicationId,
          type: 'payment_intent.payment_failed',
          object: toPaymentIntentResponse(Object.assign(pi, changes, { status })),
          previous_attributes: { status: 'processing' },
        });
      }
    }
    return true;
  }
}
