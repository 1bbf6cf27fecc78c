import { Injectable } from '@nestjs/common';
import { Clock } from '../../../common/clock.js';
import type { Principal, Scope } from '../../../common/context/principal.js';
import { AppError } from '../../../common/errors/app-error.js';
import { HoldReleaseJob } from '../../ledger/index.js';
import { CheckoutErrors } from '../checkout.errors.js';
import type { Charge } from '../entities/charge.entity.js';
import { ChargesService } from './charges.service.js';
import { CheckoutExpiryJob } from './checkout-expiry.job.js';
import { CheckoutPaymentsService, type CheckoutPaymentResponse } from './checkout-payments.service.js';
import { assertSessionTarget, reachProvider } from './provider-call.js';
import { CollectionProviders } from './providers/collection-providers.js';

/** Later than any `available_on`: "release now" is "release everything held". */
const END_OF_TIME = new Date('9999-12-31T23:59:59Z');

/** What test mode lets a merchant (or the hosted page) do that time or a bank would do in live mode. */
@Injectable()
export class CollectionTestHelpersService {
  constructor(
    private readonly holds: HoldReleaseJob,
    private readonly expiry: CheckoutExpiryJob,
    private readonly payments: CheckoutPaymentsService,
    private readonly charges: ChargesService,
    private readonly providers: CollectionProviders,
    private readonly clock: Clock,
  ) {}

  /** Releases every held entry of this application's test data now, as the settlement delay would. */
  async releaseHolds(scope: Scope) {
    const released = await this.holds.releaseDue(END_OF_TIME, {
      applicationIds: [scope.application.id],
      modes: ['test'],
    });
    return { object: 'hold_release' as const, livemode: false, released, released_at: this.clock.now().toISOString() };
  }

  /** The checkout expires now, as it would after 24 hours, leaving what the expiry sweep leaves. */
  expireCheckout(scope: Scope, id: string) {
    return this.expiry.expireNow(scope, id);
  }

  /** The buyer's bank pays the checkout's pending PromptPay QR code (also the hosted page's, in test mode). */
  async payPromptPay(principal: Principal, id: string): Promise<CheckoutPaymentResponse> {
    if (principal.credential.privilege === 'none') assertSessionTarget(principal, id);
    const applicationId = principal.application.id;
    // Ask the provider first, holding no lock; then apply its answer to the state as it is then.
    const seen = await this.payablePending(applicationId, id);
    const provider = this.providers.named(seen.provider ?? 'sandbox');
    const result = await reachProvider(() => provider.confirmPromptPay(seen.reference_id ?? ''));
    if (result.status !== 'succeeded') {
      throw new AppError(CheckoutErrors.E7018, `Charge "${seen.id}" is not paid yet.`);
    }
    const attempt = await this.payments.transaction(async (manager) => {
      const checkout = await this.payments.lockPayable(applicationId, id, manager);
      const pending = await this.charges.lockById(applicationId, seen.id, manager);
      if (!pending || pending.status !== 'pending' || checkout.pending_charge_id !== pending.id) {
        throw new AppError(CheckoutErrors.E7018, `Checkout "${id}" has no pending PromptPay charge.`);
      }
      const target = await this.payments.lockTarget(checkout, manager);
      const charge = await this.payments.succeed(principal, checkout, target, pending, 'promptpay', manager);
      return { checkout, charge, dispute: false };
    });
    return this.payments.answer(principal, attempt);
  }

  /** The checkout's pending PromptPay charge, if the checkout can be paid and its QR code is still valid. */
  private async payablePending(applicationId: string, id: string): Promise<Charge> {
    const checkout = await this.payments.payable(applicationId, id);
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
}
