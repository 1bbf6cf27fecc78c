import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { ApplicationRef, Scope } from '../../../common/context/principal.js';
import { AppError } from '../../../common/errors/app-error.js';
import { Errors } from '../../../common/errors/error-catalog.js';
import type { JobScope } from '../../../common/jobs/job-scope.js';
import { PeriodicJob } from '../../../common/jobs/periodic-job.js';
import { forEachMode } from '../../../common/tenancy/modes.js';
import { ApplicationsService } from '../../applications/index.js';
import { CheckoutErrors } from '../checkout.errors.js';
import type { CheckoutResponse } from '../checkout.responses.js';
import { CheckoutsService, type ExpiryWork } from '../checkouts/checkouts.service.js';
import type { Checkout } from '../entities/checkout.entity.js';
import { PaymentIntentsService } from '../targets/payment-intents.service.js';
import { TargetsService } from '../targets/targets.service.js';
import { ChargesService } from './charges.service.js';
import { SubscriptionCompletionService } from './subscription-completion.service.js';
import { CheckoutPaymentsService } from './checkout-payments.service.js';

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
 * target). `expireNow` is the test helper's, so both leave the same state.
 */
@Injectable()
export class CheckoutExpiryJob extends PeriodicJob {
  constructor(
    private readonly checkouts: CheckoutsService,
    private readonly payments: CheckoutPaymentsService,
    private readonly charges: ChargesService,
    private readonly targets: TargetsService,
    private readonly paymentIntents: PaymentIntentsService,
    private readonly applications: ApplicationsService,
    private readonly subscriptionCompletion: SubscriptionCompletionService,
  ) {
    super(INTERVAL_MS);
  }

  protected runOnce(): Promise<unknown> {
    return this.sweep(this.clock.now());
  }

  /** One sweep of everything expired at `now`, batch after batch, in both modes (or `scope`). */
  async sweep(now: Date, scope: JobScope = {}): Promise<ExpirySweep> {
    const result: ExpirySweep = { checkouts_expired: 0, charges_failed: 0 };
    const applicationIds = scope.applicationIds ?? null;
    await forEachMode(
      (mode) =>
        this.context.runInMode(mode, async () => {
          // The applications of what is due, read before the batches lock anything (their
          // checkout.expired events carry the page URL, which names the application's slug).
          const due = await this.checkouts.applicationsWithExpired(now, applicationIds);
          const applications = due.length > 0 ? await this.applications.byIds(due) : new Map<string, ApplicationRef>();
          for (const what of ['checkouts', 'qr_codes'] as const) {
            await this.untilDrained(BATCH, () => this.sweepBatch(what, now, applicationIds, applications, result));
          }
        }),
      scope.modes,
    );
    return result;
  }

  /**
   * Test helper: the checkout expires now, as it would after 24 hours (or as of its own expiry if
   * that has passed), leaving exactly what the sweep leaves.
   */
  async expireNow(scope: Scope, id: string): Promise<CheckoutResponse> {
    const applicationId = scope.application.id;
    const checkout = await this.payments.transaction(async (manager) => {
      const found = await this.checkouts.find(applicationId, id, manager, true);
      if (!found) throw new AppError(Errors.E4004, `No checkout with id "${id}".`);
      if (found.status === 'complete') throw new AppError(CheckoutErrors.E7006, `Checkout "${id}" is complete.`);
      if (found.status === 'expired') return found;
      const now = this.clock.now();
      await this.expireLocked(scope.application, found, found.expires_at < now ? found.expires_at : now, manager);
      return found;
    });
    return this.checkouts.toResponse(scope, checkout);
  }

  /** Expires a checkout locked by `manager`'s transaction as of `expiredAt` and fails its pending charge. */
  private async expireLocked(
    application: ApplicationRef,
    checkout: Checkout,
    expiredAt: Date,
    manager: EntityManager,
  ): Promise<{ chargeFailed: boolean }> {
    const chargeFailed = checkout.pending_charge_id ? await this.failPending(checkout, expiredAt, manager) : false;
    await this.checkouts.expire(application, checkout, expiredAt, manager);
    // A subscription checkout: its first invoice voided, its subscription expired, its redemption given back.
    if (checkout.subscription_id) await this.subscriptionCompletion.expired(checkout, manager);
    return { chargeFailed };
  }

  /** Claims up to BATCH checkouts with work to do, skipping those another transaction holds. */
  private sweepBatch(
    what: ExpiryWork,
    now: Date,
    applicationIds: readonly string[] | null,
    applications: Map<string, ApplicationRef>,
    result: ExpirySweep,
  ): Promise<number> {
    return this.payments.transaction(async (manager) => {
      const claimed = await this.checkouts.claimExpiring(manager, what, now, applicationIds, BATCH);
      for (const checkout of claimed) {
        if (what === 'checkouts') {
          const application = applications.get(checkout.application_id);
          // Due after the applications were read (only a clock moved back does that): the next sweep expires it.
          if (!application) throw new Error(`checkout ${checkout.id} came due during the expiry sweep`);
          const { chargeFailed } = await this.expireLocked(application, checkout, checkout.expires_at, manager);
          result.checkouts_expired += 1;
          if (chargeFailed) result.charges_failed += 1;
        } else if (await this.failPending(checkout, null, manager)) {
          await this.payments.clearPending(checkout, manager);
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
      const target = await this.targets.load(applicationId, 'payment_intent', checkout.target_id, manager, true);
      const waiting = target.type === 'payment_intent' ? target.record : null;
      if (waiting?.status === 'processing' && waiting.latest_charge === charge.id) {
        const error = { code: EXPIRED_PROMPTPAY.code, message: why.message, charge: charge.id };
        await this.paymentIntents.fail(waiting, error, manager);
      }
    }
    return true;
  }
}
