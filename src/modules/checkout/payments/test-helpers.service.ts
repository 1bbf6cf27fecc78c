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
import { ChargeOutcomesService } from './charge-outcomes.service.js';
import type { ChargeResponse } from './charges.responses.js';
import { CheckoutsService } from '../checkouts/checkouts.service.js';
import { Errors } from '../../../common/errors/error-catalog.js';
import { chargeMethodType, paymentMethodInfo } from '../../../providers/ports/payment-method-types.js';

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
    private readonly outcomes: ChargeOutcomesService,
    private readonly checkouts: CheckoutsService,
  ) {}

  /**
   * `POST /test_helpers/charges/{id}/succeed|fail`: the buyer pays (or the payment fails) at the
   * provider, for any pending charge of a QR or redirect type (PromptPay, TrueMoney, mobile banking,
   * installments, PayNow, FPX, GrabPay). The provider's test mode is told (`simulate`), its answer
   * read back and applied as a webhook's would be: once (a second call finds the charge final: E7409).
   * The hosted page calls it with the checkout's session (QR types); a merchant with its key.
   */
  async settleCharge(principal: Principal, id: string, outcome: 'succeeded' | 'failed'): Promise<ChargeResponse> {
    const applicationId = principal.application.id;
    const charge = await this.charges.findById(applicationId, id);
    if (!charge) throw new AppError(Errors.E4004, `No charge with id "${id}".`);
    if (principal.credential.privilege === 'none') {
      const checkout = await this.checkouts.pendingOn(applicationId, charge.id);
      assertSessionTarget(principal, checkout?.id ?? '');
    }
    const type = chargeMethodType(charge);
    if (paymentMethodInfo(type).flow === 'card' || charge.status !== 'pending' || !charge.reference_id) {
      throw new AppError(
        CheckoutErrors.E7409,
        `Charge "${id}" is a ${type} charge in status ${charge.status}${charge.reference_id ? '' : ' without a provider reference'}: only a pending QR or redirect charge can be settled by a test helper.`,
      );
    }
    const provider = this.providers.named(charge.provider ?? 'sandbox');
    if (!provider.simulate) {
      throw new AppError(CheckoutErrors.E7409, `The provider "${provider.name}" has no test mode simulation here.`);
    }
    const reference = charge.reference_id;
    await reachProvider(() => provider.simulate!(reference, outcome));
    const answer = await reachProvider(() => provider.confirmPromptPay(reference));
    await this.outcomes.applyTo(charge, provider.name, answer);
    return this.charges.retrieve(principal, id);
  }

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
