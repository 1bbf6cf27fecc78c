import { chargeMethodType, paymentMethodInfo } from '../../../providers/ports/payment-method-types.js';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../../common/clock.js';
import type { Principal } from '../../../common/context/principal.js';
import { AppError } from '../../../common/errors/app-error.js';
import { CheckoutErrors } from '../checkout.errors.js';
import { Errors } from '../../../common/errors/error-catalog.js';
import { EventRecorder } from '../../../common/events/event-recorder.js';
import type { EventType } from '../../../common/events/event-types.js';
import { newId } from '../../../common/ids.js';
import type { JobScope } from '../../../common/jobs/job-scope.js';
import { runList, type ListEnvelope, type ListQuery, type ListSpec, ListFilters } from '../../../common/list/index.js';
import { CustomersService } from '../../customers/index.js';
import { BalancesService } from '../../ledger/index.js';
import { chargeTransition, type ChargeEvent } from './charge.transitions.js';
import { ChargesRepository } from './charges.repository.js';
import { toChargeResponse, toPaymentMethodResponse, type ChargeResponse } from './charges.responses.js';
import { toInvoiceResponse } from '../checkout.responses.js';
import type { Charge } from '../entities/charge.entity.js';
import { InvoicesService } from '../targets/invoices.service.js';
import { TargetsService } from '../targets/targets.service.js';
import type { PaymentMethod } from '../entities/payment-method.entity.js';

export const CHARGE_LIST: ListSpec = {
  filters: {
    id: ListFilters.uuid,
    status: ListFilters.oneOf(['pending', 'requires_capture', 'succeeded', 'failed', 'canceled']),
    capture_method: ListFilters.oneOf(['automatic', 'manual']),
    captured: ListFilters.boolean,
    customer_id: ListFilters.uuid,
    payment_intent: ListFilters.word,
    invoice_id: ListFilters.uuid,
    currency: ListFilters.currency,
    amount: ListFilters.money,
    paid: ListFilters.boolean,
    disputed: ListFilters.boolean,
    failure_code: ListFilters.word,
    provider: ListFilters.word,
    created_at: ListFilters.timestamp,
    updated_at: ListFilters.timestamp,
  },
  sortable: ['created_at', 'amount'],
  search: ['id', 'reference_id', 'payment_intent', 'failure_code'],
};

/** What a dispute records on the charge it disputes. */
export interface ChargeDisputeFacts {
  dispute_id: string;
  dispute_status: string;
  dispute_reason: string;
  dispute_amount: number;
}

/**
 * The owner of charges and payment methods. Status changes go through charge.transitions.ts and
 * are written by ChargesRepository.writeStatus, from `transition` only; other modules (disputes)
 * change a charge only through the methods exported here, never by column.
 */
@Injectable()
export class ChargesService {
  constructor(
    private readonly charges: ChargesRepository,
    private readonly targets: TargetsService,
    private readonly invoices: InvoicesService,
    private readonly customers: CustomersService,
    private readonly balances: BalancesService,
    private readonly events: EventRecorder,
    private readonly clock: Clock,
  ) {}

  /**
   * Refuses a refund the charge's payment method type cannot take at its provider (the registry's
   * `refund` rules): not refundable at all (E7404), only in full (E7405), or past its window (E7406).
   */
  assertRefundable(charge: Charge, amount: number): void {
    const type = chargeMethodType(charge);
    const { refund, name } = paymentMethodInfo(type);
    if (!refund.refundable) {
      throw new AppError(CheckoutErrors.E7404, `${name.en} charges (${type}) cannot be refunded through the provider.`);
    }
    if (!refund.partial && amount !== Number(charge.amount) - Number(charge.amount_refunded)) {
      throw new AppError(CheckoutErrors.E7405, `${name.en} charges (${type}) can only be refunded in full.`).on(
        'amount',
      );
    }
    if (refund.windowDays !== null) {
      const closes = charge.created_at.getTime() + refund.windowDays * 24 * 3600 * 1000;
      if (this.clock.nowMs() > closes) {
        throw new AppError(
          CheckoutErrors.E7406,
          `${name.en} charges (${type}) can be refunded for ${refund.windowDays} days; charge "${charge.id}" was made ${charge.created_at.toISOString()}.`,
        );
      }
    }
  }

  async retrieve(principal: Principal, id: string): Promise<ChargeResponse> {
    const charge = await this.charges.find(principal.application.id, id);
    if (!charge) throw new AppError(Errors.E4004, `No charge with id "${id}".`);
    return (await this.withInvoices(principal.application.id, [charge]))[0];
  }

  async list(principal: Principal, query: ListQuery): Promise<ListEnvelope<ChargeResponse>> {
    const page = await runList(this.charges.query(principal.application.id), CHARGE_LIST, query, (c) => c);
    return { ...page, data: await this.withInvoices(principal.application.id, page.data) };
  }

  /** Records a charge (NEW_CHARGE_STATUS: before its provider is called); `application_id`, `status`, `currency` and `amount` are required. */
  create(charge: Partial<Charge>, manager?: EntityManager): Promise<Charge> {
    const now = this.clock.now();
    return this.charges.insert({ id: newId(), created_at: now, updated_at: now, ...charge }, manager);
  }

  /**
   * Applies `event` to the charge (a pending one: succeed, fail or cancel) with the facts that come
   * with it; a charge that succeeds or fails records `charge.succeeded` / `charge.failed` in the
   * same transaction, a capture also `charge.captured`, and `also` names one more event (an expired
   * authorization's `charge.expired`).
   */
  async transition(
    charge: Charge,
    event: ChargeEvent,
    facts: Omit<Partial<Charge>, 'status'>,
    manager: EntityManager,
    also?: 'charge.expired',
  ): Promise<Charge> {
    const status = chargeTransition(charge.status, event);
    const updated = await this.charges.writeStatus(
      charge.application_id,
      charge.id,
      status,
      { ...facts, updated_at: this.clock.now() },
      manager,
    );
    const types: EventType[] = [];
    if (status === 'succeeded') types.push('charge.succeeded');
    if (status === 'failed') types.push('charge.failed');
    if (event === 'capture') types.push('charge.captured');
    if (also) types.push(also);
    if (types.length > 0) {
      const object = await this.eventObject(updated!, manager);
      for (const type of types) {
        await this.events.record(manager, {
          applicationId: charge.application_id,
          type,
          object,
          previous_attributes: { status: charge.status },
        });
      }
    }
    return updated!;
  }

  /** What the provider answered about a charge that stays in its state (its reference, a QR code). */
  async recordProviderFacts(
    charge: Charge,
    facts: Omit<Partial<Charge>, 'status'>,
    manager?: EntityManager,
  ): Promise<Charge> {
    const changes = { ...facts, updated_at: this.clock.now() };
    await this.charges.update(charge.application_id, charge.id, changes, manager);
    return Object.assign(charge, changes);
  }

  /** A dispute was opened on the charge (by the disputes module, inside its transaction). */
  async recordDispute(applicationId: string, chargeId: string, facts: ChargeDisputeFacts, manager?: EntityManager) {
    await this.charges.update(
      applicationId,
      chargeId,
      { ...facts, disputed: true, updated_at: this.clock.now() },
      manager,
    );
  }

  /**
   * A refund changed what is refunded of the charge (by the refunds module, inside its transaction,
   * with the charge locked): `amountRefunded` counts succeeded and pending refunds; `refunded` is
   * set once it reaches the charge's amount. Returns the charge as stored.
   */
  async recordRefund(applicationId: string, chargeId: string, amountRefunded: number, manager: EntityManager) {
    const charge = (await this.charges.find(applicationId, chargeId, manager))!;
    const changes = {
      amount_refunded: amountRefunded,
      refunded: amountRefunded >= Number(charge.amount),
      updated_at: this.clock.now(),
    };
    await this.charges.update(applicationId, chargeId, changes, manager);
    // An invoice's charge: the invoice shows what was refunded of it (amount_refunded).
    if (charge.invoice_id && charge.status === 'succeeded')
      await this.invoices.recordRefund(applicationId, charge.invoice_id, amountRefunded, manager);
    return Object.assign(charge, changes);
  }

  /** Authorizations past their hold that nothing claimed (the expiry job's batch). */
  authorizationsDue(now: Date, limit: number, scope: Pick<JobScope, 'applicationIds'> = {}): Promise<Charge[]> {
    return this.charges.authorizationsDue(now, limit, scope);
  }

  /** Capture or void claims whose call failed or whose process died (the stuck-claim job's batch). */
  stuckCaptureClaims(claimedBefore: Date, limit: number, scope: Pick<JobScope, 'applicationIds'> = {}) {
    return this.charges.stuckCaptureClaims(claimedBefore, limit, scope);
  }

  /** Whether the customer has ever paid in this application and mode (first_time_transaction promotion codes). */
  customerHasPaid(applicationId: string, customerId: string, manager?: EntityManager): Promise<boolean> {
    return this.charges.customerHasPaid(applicationId, customerId, manager);
  }

  findById(applicationId: string, id: string, manager?: EntityManager): Promise<Charge | null> {
    return this.charges.find(applicationId, id, manager);
  }

  /** A charge by id, of any application of the mode bound (the 3-D Secure return knows only the id). */
  findInMode(id: string): Promise<Charge | null> {
    return this.charges.byIdInMode(id);
  }

  /** The charge a provider knows by `reference`, of any application of the mode bound (a provider's dispute names only it). */
  findByProviderReference(provider: string, reference: string): Promise<Charge | null> {
    return this.charges.byProviderReference(provider, reference);
  }

  /** findById that also locks the charge (FOR UPDATE) until `manager`'s transaction ends. */
  lockById(applicationId: string, id: string, manager: EntityManager): Promise<Charge | null> {
    return this.charges.find(applicationId, id, manager, true);
  }

  /** Charges of this application by id (for the records that embed their charge). */
  chargesById(applicationId: string, ids: string[]): Promise<Map<string, Charge>> {
    return this.charges.byIds(applicationId, ids);
  }

  createPaymentMethod(pm: Partial<PaymentMethod>, manager?: EntityManager): Promise<PaymentMethod> {
    const now = this.clock.now();
    return this.charges.insertPaymentMethod({ id: newId(), created_at: now, updated_at: now, ...pm }, manager);
  }

  /** The charge record with its customer, payment method and balance embedded (invoice: given, else null). */
  async toResponse(charge: Charge, invoice: Record<string, unknown> | null = null): Promise<ChargeResponse> {
    return (await this.toResponses([charge], () => invoice))[0];
  }

  /**
   * Batch form of toResponse for lists: a fixed number of queries whatever the page size. With
   * `manager`, the payment methods and balances are read in that transaction (an event's
   * data.object, built where the change is made, equals what GET answers after the commit).
   */
  async toResponses(
    charges: Charge[],
    invoiceOf: (charge: Charge) => Record<string, unknown> | null = () => null,
    manager?: EntityManager,
  ): Promise<ChargeResponse[]> {
    if (charges.length === 0) return [];
    const app = charges[0].application_id;
    // The payment methods and then their customers, and the balances, on two connections at once.
    const [{ pms, customers }, balances] = await Promise.all([
      (async () => {
        const pms = await this.charges.paymentMethodsById(
          app,
          charges.map((c) => c.payment_method_id),
          manager,
        );
        const customers = await this.customers.byIds(
          app,
          [...charges.map((c) => c.customer_id), ...[...pms.values()].map((pm) => pm.customer_id)],
          manager,
        );
        return { pms, customers };
      })(),
      this.balances.responsesById(
        app,
        charges.map((c) => c.balance_id),
        manager,
      ),
    ]);
    return charges.map((charge) => {
      const pm = pms.get(charge.payment_method_id ?? '');
      return toChargeResponse(charge, {
        customer: customers.get(charge.customer_id ?? '') ?? null,
        payment_method: pm ? toPaymentMethodResponse(pm, customers.get(pm.customer_id ?? '') ?? null) : null,
        balance: balances.get(charge.balance_id ?? '') ?? null,
        invoice: invoiceOf(charge),
      });
    });
  }

  /** The charge as GET /charges/{id} will answer it once `manager`'s transaction commits. */
  async eventObject(charge: Charge, manager: EntityManager): Promise<ChargeResponse> {
    const invoice = charge.invoice_id
      ? await this.targets.findInvoice(charge.application_id, charge.invoice_id, manager)
      : null;
    return (await this.toResponses([charge], () => (invoice ? toInvoiceResponse(invoice) : null), manager))[0];
  }

  private async withInvoices(applicationId: string, charges: Charge[]): Promise<ChargeResponse[]> {
    const invoices = await this.targets.invoicesByIds(
      applicationId,
      charges.map((c) => c.invoice_id),
    );
    return this.toResponses(charges, (c) => {
      const invoice = invoices.get(c.invoice_id ?? '');
      return invoice ? toInvoiceResponse(invoice) : null;
    });
  }
}
