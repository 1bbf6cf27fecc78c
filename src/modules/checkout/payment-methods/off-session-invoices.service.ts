import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../../common/clock.js';
import type { Scope } from '../../../common/context/principal.js';
import { AppError } from '../../../common/errors/app-error.js';
import type { CollectionProvider, ProviderPayment } from '../../../providers/ports/collection.port.js';
import type { Charge } from '../entities/charge.entity.js';
import { invoiceAmountDue, type Invoice } from '../entities/invoice.entity.js';
import type { PaymentMethod } from '../entities/payment-method.entity.js';
import { NEW_CHARGE_STATUS } from '../payments/charge.transitions.js';
import { ChargesService } from '../payments/charges.service.js';
import { CheckoutPaymentsService } from '../payments/checkout-payments.service.js';
import { PROVIDER_TIMEOUT_MS, reachProvider } from '../payments/provider-call.js';
import { CollectionProviders } from '../payments/providers/collection-providers.js';
import { InvoicesService } from '../targets/invoices.service.js';
import { TargetsService, type Target } from '../targets/targets.service.js';
import { PaymentMethodsService, savedCardOf } from './payment-methods.service.js';

/** What one off-session attempt on an invoice came to. */
export type InvoiceAttempt =
  | { status: 'paid'; chargeId: string }
  | { status: 'failed'; chargeId: string | null; code: string; message: string }
  /** Not attempted: the invoice moved on (paid, voided, rescheduled) or an attempt is still in flight. */
  | { status: 'skipped'; reason: string };

/**
 * In the transaction that records a failed attempt, the invoice locked: the caller (billing's
 * collection) counts the attempt and schedules the next one there, so a failure is never lost.
 */
export type OnAttemptFailed = (invoice: Invoice, manager: EntityManager) => Promise<void>;

interface Recorded {
  charge: Charge;
  paymentMethod: PaymentMethod;
  provider: CollectionProvider;
}

/**
 * Charging an open invoice with a customer's saved card, the customer absent (billing's collection,
 * docs/BILLING.md "Collection and retries"). The steps of every payment here: record the attempt
 * (invoice locked: a pending charge, the invoice's `collection_charge_id` naming it, so no second
 * attempt starts while it may be answered), call the provider with no transaction open, apply the
 * answer in a new transaction that checks the state again. Success books the charge like any card
 * charge (ledger posting, `charge.succeeded`, the invoice paid with `invoice.paid`); a decline, an
 * authentication the absent customer cannot give, or no answer is a failed attempt handed to `onFailed`.
 */
@Injectable()
export class OffSessionInvoicesService {
  constructor(
    private readonly invoices: InvoicesService,
    private readonly payments: CheckoutPaymentsService,
    private readonly charges: ChargesService,
    private readonly targets: TargetsService,
    private readonly paymentMethods: PaymentMethodsService,
    private readonly providers: CollectionProviders,
    private readonly clock: Clock,
  ) {}

  /**
   * One attempt on invoice `invoiceId`, due at `dueAt` (its `next_payment_attempt` when claimed: an
   * invoice rescheduled or paid meanwhile is skipped), with saved method `paymentMethodId`. No
   * method, a detached one or one its provider cannot charge is a failed attempt without a charge.
   * Every `failed` answer has been handed to `onFailed` in the transaction that recorded it.
   */
  async attempt(
    scope: Scope,
    invoiceId: string,
    dueAt: Date,
    paymentMethodId: string | null,
    onFailed: OnAttemptFailed,
  ): Promise<InvoiceAttempt> {
    const settled = await this.settleDeadAttempt(scope, invoiceId, onFailed);
    if (settled) return settled;
    const recorded = await this.recordAttempt(scope, invoiceId, dueAt, paymentMethodId, onFailed);
    if ('status' in recorded) return recorded;
    let answer: ProviderPayment;
    try {
      answer = await reachProvider(() =>
        recorded.provider.chargeSavedCard!(
          {
            applicationId: scope.application.id,
            chargeId: recorded.charge.id,
            amount: Number(recorded.charge.amount),
            currency: recorded.charge.currency,
            scalingFactor: recorded.charge.scaling_factor,
            livemode: scope.livemode,
          },
          savedCardOf(recorded.paymentMethod),
          true,
        ),
      );
    } catch {
      answer = {
        status: 'failed',
        reference: '',
        failure: { code: 'processing_error', reason: 'provider_unavailable', message: 'The provider did not answer.' },
      };
    }
    return this.applyAnswer(scope, invoiceId, recorded, answer, onFailed);
  }

  /**
   * An attempt in flight longer than a provider call may take (its process died before applying the
   * answer): the provider is asked, with no transaction open, for the payment it made for that charge
   * id, and that answer is applied, so a card is never charged twice. Answers null when there is
   * no such attempt (or it still may be answered: recordAttempt skips it).
   */
  private async settleDeadAttempt(
    scope: Scope,
    invoiceId: string,
    onFailed: OnAttemptFailed,
  ): Promise<InvoiceAttempt | null> {
    const invoice = await this.targets.findInvoice(scope.application.id, invoiceId);
    if (!invoice?.collection_charge_id) return null;
    const charge = await this.charges.findById(scope.application.id, invoice.collection_charge_id);
    if (charge?.status !== 'pending') return null;
    if (this.clock.now().getTime() - charge.created_at.getTime() < PROVIDER_TIMEOUT_MS) return null;
    const provider = this.providers.named(charge.provider ?? 'sandbox');
    const made = await reachProvider(() => provider.paymentByChargeId(charge.id, charge.created_at));
    const answer: ProviderPayment = made ?? {
      status: 'failed',
      reference: '',
      failure: { code: 'processing_error', reason: 'provider_unavailable', message: 'The provider did not answer.' },
    };
    const paymentMethod = await this.paymentMethods.attachedTo(
      scope.application.id,
      invoice.customer_id,
      charge.payment_method_id!,
    );
    return this.applyAnswer(scope, invoiceId, { charge, provider, paymentMethod }, answer, onFailed);
  }

  /** Phase 1: the invoice locked for a short transaction; the pending charge on the saved method. */
  private async recordAttempt(
    scope: Scope,
    invoiceId: string,
    dueAt: Date,
    paymentMethodId: string | null,
    onFailed: OnAttemptFailed,
  ): Promise<Recorded | InvoiceAttempt> {
    const applicationId = scope.application.id;
    const peek = await this.targets.findInvoice(applicationId, invoiceId);
    if (peek) await this.targets.chargeableCustomer(scope, peek.customer_id);
    return this.payments.transaction(async (manager) => {
      const invoice = await this.invoices.lockById(applicationId, invoiceId, manager);
      if (!invoice || invoice.status !== 'open') return { status: 'skipped', reason: `invoice ${invoice?.status}` };
      if (invoice.next_payment_attempt?.getTime() !== dueAt.getTime())
        return { status: 'skipped', reason: 'rescheduled' };
      if (invoice.collection_charge_id) return { status: 'skipped', reason: 'an attempt is in flight' };
      const unusable = async (code: string, message: string): Promise<InvoiceAttempt> => {
        await onFailed(invoice, manager);
        return { status: 'failed', chargeId: null, code, message };
      };
      if (!paymentMethodId) return unusable('no_payment_method', 'The customer has no default payment method.');
      let paymentMethod: PaymentMethod;
      try {
        paymentMethod = await this.paymentMethods.attachedTo(
          applicationId,
          invoice.customer_id,
          paymentMethodId,
          manager,
          'share',
        );
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        return unusable('payment_method_unusable', err.message);
      }
      const provider = this.providers.forCountry(invoice.country, scope.livemode);
      if (!provider.chargeSavedCard || paymentMethod.provider !== provider.name) {
        return unusable('payment_method_unusable', `${provider.name} does not charge this saved card.`);
      }
      const charge = await this.charges.create(
        {
          application_id: applicationId,
          country: invoice.country,
          status: NEW_CHARGE_STATUS,
          customer_id: invoice.customer_id,
          payment_method_id: paymentMethod.id,
          invoice_id: invoice.id,
          payment_intent: null,
          currency: invoice.currency,
          amount: invoiceAmountDue(invoice),
          scaling_factor: invoice.scaling_factor,
          amount_capturable: 0,
          provider: provider.name,
          reference_id: null,
          next_action: [],
          metadata: invoice.metadata,
        },
        manager,
      );
      await this.invoices.recordCollection(invoice, { collection_charge_id: charge.id }, manager);
      return { charge, paymentMethod, provider };
    });
  }

  /** Phase 3: the answer applied to the invoice and charge as they are now. */
  private applyAnswer(
    scope: Scope,
    invoiceId: string,
    recorded: Recorded,
    answer: ProviderPayment,
    onFailed: OnAttemptFailed,
  ): Promise<InvoiceAttempt> {
    const applicationId = scope.application.id;
    return this.payments.transaction(async (manager): Promise<InvoiceAttempt> => {
      const invoice = (await this.invoices.lockById(applicationId, invoiceId, manager))!;
      const charge = await this.charges.lockById(applicationId, recorded.charge.id, manager);
      if (!charge || charge.status !== 'pending' || invoice.collection_charge_id !== charge.id) {
        if (answer.status === 'succeeded')
          this.payments.reconcileLater(recorded.provider.name, answer.reference, recorded.charge.id);
        return { status: 'skipped', reason: 'overtaken' };
      }
      const target: Target = { type: 'invoice', record: invoice };
      if (answer.status === 'succeeded' && invoice.status === 'open') {
        await this.payments.book(invoice, target, charge, 'card', manager, { reference_id: answer.reference });
        return { status: 'paid', chargeId: charge.id };
      }
      if (answer.status === 'succeeded')
        this.payments.reconcileLater(recorded.provider.name, answer.reference, charge.id);
      const failure =
        answer.status === 'succeeded'
          ? { code: 'invoice_not_open', reason: 'invoice_not_open', message: `The invoice is ${invoice.status}.` }
          : (answer.failure ?? {
              code: 'processing_error',
              reason: 'processing_error',
              message: 'The payment failed.',
            });
      await this.charges.transition(
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
      await this.invoices.recordCollection(invoice, { collection_charge_id: null }, manager);
      if (invoice.status === 'open') await onFailed(invoice, manager);
      return { status: 'failed', chargeId: charge.id, code: failure.code, message: failure.message };
    });
  }
}
