import { randomInt } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AuditRecorder } from '../../../common/audit/audit-recorder.js';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../../common/clock.js';
import { RequestContext } from '../../../common/context/request-context.js';
import { countryOf, type Principal, type Scope } from '../../../common/context/principal.js';
import { newId } from '../../../common/ids.js';
import { scalingFactorOf } from '../../ledger/index.js';
import { AppError } from '../../../common/errors/app-error.js';
import { Errors } from '../../../common/errors/error-catalog.js';
import { EventRecorder } from '../../../common/events/event-recorder.js';
import { runList, type ListEnvelope, type ListQuery, type ListSpec, ListFilters } from '../../../common/list/index.js';
import { CheckoutErrors } from '../checkout.errors.js';
import { toInvoiceResponse, type InvoiceResponse } from '../checkout.responses.js';
import { MAX_AMOUNT, typesCollecting } from '../checkout-rules.js';
import type { CreateInvoiceDto } from '../dto/invoice.dto.js';
import { invoiceAmountDue, type Invoice, type InvoiceLineItem } from '../entities/invoice.entity.js';
import { defaultPaymentMethodTypes, type PaymentMethodType } from '../../../providers/ports/payment-method-types.js';
import { newTargetFields } from './payment-intents.service.js';
import { CollectionProviders } from '../payments/providers/collection-providers.js';
import { TargetsService } from './targets.service.js';
import { NEW_INVOICE_STATUS, invoiceTransition, type InvoiceEvent } from './invoice.transitions.js';
import { InvoiceHooks } from './invoice-hooks.js';
import { InvoicesRepository } from './invoices.repository.js';

const NUMBER_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';

export const INVOICE_LIST: ListSpec = {
  filters: {
    id: ListFilters.uuid,
    number: ListFilters.text,
    status: ListFilters.oneOf(['draft', 'open', 'paid', 'void']),
    customer_id: ListFilters.uuid,
    currency: ListFilters.currency,
    total: ListFilters.money,
    due_date: ListFilters.timestamp,
    created_at: ListFilters.timestamp,
    updated_at: ListFilters.timestamp,
    labels: ListFilters.labels,
  },
  sortable: ['created_at', 'total', 'due_date'],
  search: ['id', 'number', 'description', 'customer_id'],
};

/**
 * Invoices: created, read, finalized and voided by the merchant; paid only by `pay` here, which
 * checkout payments call in their transaction.
 */
@Injectable()
export class InvoicesService {
  constructor(
    private readonly repository: InvoicesRepository,
    private readonly targets: TargetsService,
    private readonly providers: CollectionProviders,
    private readonly events: EventRecorder,
    private readonly clock: Clock,
    private readonly hooks: InvoiceHooks,
    private readonly audit: AuditRecorder,
    private readonly context: RequestContext,
  ) {}

  /** A draft invoice: its total is the sum of its lines; `POST /invoices/:id/finalize` makes it payable. */
  async create(principal: Principal, dto: CreateInvoiceDto): Promise<InvoiceResponse> {
    await this.targets.chargeableCustomer(principal, dto.customer_id);
    const lines = dto.line_items.map((l) => ({
      description: l.description,
      amount: l.amount,
      quantity: l.quantity ?? 1,
    }));
    const total = lines.reduce((sum, l) => sum + l.amount * l.quantity, 0);
    if (total < 1 || total > MAX_AMOUNT) {
      throw new AppError(CheckoutErrors.E7019, `The line items total ${total}; an invoice totals 1 to ${MAX_AMOUNT}.`);
    }
    const now = this.clock.now();
    const record = {
      ...(await newTargetFields(this.targets, this.providers, principal, dto, total, now)),
      number: invoiceNumber(now),
      status: NEW_INVOICE_STATUS,
      customer_id: dto.customer_id,
      line_items: lines,
      subtotal: total,
      total,
      amount_paid: 0,
      due_date: dto.due_date ? new Date(dto.due_date) : null,
      charge_id: null,
      finalized_at: null,
      paid_at: null,
      voided_at: null,
    };
    const invoice = await this.repository.transaction(async (manager) => {
      const inserted = await this.repository.insert(record, manager);
      await this.audit.record(manager, {
        applicationId: inserted.application_id,
        action: 'invoice.created',
        target: { type: 'invoice', id: inserted.id },
      });
      return inserted;
    });
    return toInvoiceResponse(invoice);
  }

  /**
   * A subscription's first invoice (docs/BILLING.md, "Subscription checkout"), in the checkout's
   * transaction: its lines priced by billing, open and collectable at once, with `billing_reason`
   * `subscription_create`. Cards only: the checkout saves the card that pays the later invoices.
   */
  async openSubscriptionInvoice(
    principal: Scope,
    input: {
      customerId: string;
      subscriptionId: string;
      currency: string;
      lines: InvoiceLineItem[];
      subtotal: number;
      total: number;
      description: string | null;
    },
    manager: EntityManager,
  ): Promise<Invoice> {
    const now = this.clock.now();
    return this.repository.insert(
      {
        ...subscriptionInvoiceFields(ownerOf(principal), input, now),
        status: invoiceTransition(NEW_INVOICE_STATUS, 'finalize', 'new'),
        payment_method_types: ['card'],
        finalized_at: now,
        billing_reason: 'subscription_create',
      },
      manager,
    );
  }

  /**
   * Subscription periods' invoices, made by billing's period close in its transaction (a batch of
   * subscriptions at once): `draft`, each with `invoice.created`. The partial unique index on
   * (subscription_id, period_start, billing_reason) refuses a second one for the same period and reason.
   */
  async createSubscriptionDrafts(
    inputs: Array<
      SubscriptionInvoiceInput & {
        id: string;
        applicationId: string;
        country: string;
        billingReason: string;
        period: { start: Date; end: Date };
        dueDate: Date | null;
      }
    >,
    manager: EntityManager,
  ): Promise<Invoice[]> {
    const now = this.clock.now();
    const invoices = await this.repository.insertMany(
      inputs.map((input) => ({
        ...subscriptionInvoiceFields(input, input, now),
        status: NEW_INVOICE_STATUS,
        due_date: input.dueDate,
        payment_method_types: this.draftPaymentMethodTypes(input.country, input.currency, this.context.livemode),
        finalized_at: null,
        billing_reason: input.billingReason,
        period_start: input.period.start,
        period_end: input.period.end,
      })),
      manager,
    );
    for (const invoice of invoices) {
      await this.events.record(manager, {
        applicationId: invoice.application_id,
        type: 'invoice.created',
        object: toInvoiceResponse(invoice),
        request: null,
      });
    }
    return invoices;
  }

  /** For billing's jobs and commands (no request): the invoice `id` of the application in the current mode, or null. */
  findOf(applicationId: string, id: string): Promise<Invoice | null> {
    return this.repository.findById(applicationId, id);
  }

  /** The invoice `id`, locked in the caller's transaction, or null. */
  lockForUpdate(applicationId: string, id: string, manager: EntityManager): Promise<Invoice | null> {
    return this.repository.findById(applicationId, id, manager, true);
  }

  /**
   * A locked draft's lines and totals, recomputed by billing before it is finalized (late usage landed),
   * and the prepaid credit its finalization draws (`credit_applied`: the charge collects the rest).
   */
  async reviseDraftLocked(
    record: Invoice,
    changes: { lines: InvoiceLineItem[]; subtotal: number; total: number; creditApplied?: number },
    manager: EntityManager,
  ): Promise<Invoice> {
    if (record.status !== 'draft') {
      throw new AppError(CheckoutErrors.E7015, `Invoice "${record.id}" is ${record.status}; only a draft changes.`);
    }
    const fields = {
      line_items: changes.lines,
      subtotal: changes.subtotal,
      total: changes.total,
      credit_applied: changes.creditApplied ?? 0,
    };
    await this.repository.update(
      record.application_id,
      record.id,
      { ...fields, updated_at: this.clock.now() },
      manager,
    );
    return Object.assign(record, fields);
  }

  /**
   * A locked open invoice with nothing to pay (a total of zero or less) is paid without a charge:
   * `invoice.paid`, `charge_id` null.
   */
  async settleWithoutChargeLocked(record: Invoice, manager: EntityManager, at: Date): Promise<Invoice> {
    const before = record.status;
    const paid = await this.transition(
      record,
      'pay',
      { amount_paid: 0, charge_id: null, paid_at: at, updated_at: this.clock.now() },
      manager,
    );
    await this.events.record(manager, {
      applicationId: record.application_id,
      type: 'invoice.paid',
      object: toInvoiceResponse(paid),
      previous_attributes: { status: before },
      request: null,
    });
    return paid;
  }

  async retrieve(principal: Principal, id: string): Promise<InvoiceResponse> {
    return toInvoiceResponse(await this.get(principal, id));
  }

  list(principal: Principal, query: ListQuery): Promise<ListEnvelope<InvoiceResponse>> {
    const qb = this.repository.listQuery('inv', principal.application.id);
    return runList(qb, INVOICE_LIST, query, toInvoiceResponse);
  }

  /** draft -> open: the invoice can now be paid through checkouts and payment links. */
  finalize(principal: Principal, id: string): Promise<InvoiceResponse> {
    return this.changeLocked(principal, id, 'finalize', { finalized_at: this.clock.now() });
  }

  /** draft or open -> void: it can never be paid. */
  void(principal: Principal, id: string): Promise<InvoiceResponse> {
    return this.changeLocked(principal, id, 'void', { voided_at: this.clock.now() });
  }

  /**
   * The locked open invoice is paid by `charge` (its amount): `invoice.paid`, then the
   * `InvoiceHooks.paid` listeners (billing moves the subscription). No attempt is scheduled any more.
   */
  async pay(record: Invoice, charge: { id: string; amount: number }, manager: EntityManager): Promise<void> {
    const now = this.clock.now();
    const before = record.status;
    const collected = record.collection_method !== null && record.collection_method !== undefined;
    const changes = {
      amount_paid: charge.amount,
      charge_id: charge.id,
      paid_at: now,
      updated_at: now,
      ...(collected
        ? { next_payment_attempt: null, collection_charge_id: null, attempt_count: Number(record.attempt_count) + 1 }
        : {}),
    };
    const paid = await this.transition(record, 'pay', changes, manager);
    await this.events.record(manager, {
      applicationId: record.application_id,
      type: 'invoice.paid',
      object: toInvoiceResponse(paid),
      previous_attributes: { status: before },
    });
    await this.hooks.paid.emit({ invoice: paid, manager });
  }

  /**
   * A subscription's first draft invoice (created through the API without a trial), in the caller's
   * transaction; the caller finalizes it with `finalizeLocked`, which hands it to billing's
   * collection. A period's invoice is `createSubscriptionDrafts` (billing's period close).
   */
  createFirstSubscriptionDraft(
    scope: Scope,
    input: SubscriptionInvoiceInput & { billingReason: string },
    manager: EntityManager,
  ): Promise<Invoice> {
    const now = this.clock.now();
    return this.repository.insert(
      {
        ...subscriptionInvoiceFields(ownerOf(scope), input, now),
        status: NEW_INVOICE_STATUS,
        finalized_at: null,
        billing_reason: input.billingReason,
        payment_method_types: this.draftPaymentMethodTypes(countryOf(scope), input.currency, scope.livemode),
      },
      manager,
    );
  }

  /** The test clocks (null: the service clock) that have off-session attempts scheduled, per application. */
  clocksWithAttempts(applicationIds?: readonly string[]) {
    return this.repository.clocksWithAttempts(applicationIds);
  }

  /** The ids of open invoices of one clock whose next attempt is due at `now` (claimed, skipping rows another replica holds). */
  async dueAttempts(applicationId: string, clockId: string | null, now: Date, limit: number): Promise<Invoice[]> {
    return this.repository.transaction((manager) =>
      this.repository.claimDueAttempts(manager, applicationId, clockId, now, limit),
    );
  }

  /** The locked invoice `id` (null when it is not this application's). */
  lockById(applicationId: string, id: string, manager: EntityManager): Promise<Invoice | null> {
    return this.repository.findById(applicationId, id, manager, true);
  }

  /**
   * How the locked invoice is collected, set by billing when it is finalized (collection_method,
   * next_payment_attempt, due_date, hosted_invoice_url), or an attempt in flight (collection_charge_id).
   */
  async recordCollection(
    record: Invoice,
    facts: Partial<
      Pick<
        Invoice,
        | 'collection_method'
        | 'next_payment_attempt'
        | 'due_date'
        | 'hosted_invoice_url'
        | 'collection_charge_id'
        | 'test_clock_id'
      >
    >,
    manager: EntityManager,
  ): Promise<Invoice> {
    const changes = { ...facts, updated_at: this.clock.now() };
    await this.repository.update(record.application_id, record.id, changes, manager);
    return Object.assign(record, changes);
  }

  /**
   * An off-session attempt on the locked open invoice failed (`chargeId`): one more attempt counted,
   * the next one at `next` (null: none is left), and `invoice.payment_failed`.
   */
  async recordPaymentFailure(record: Invoice, next: Date | null, manager: EntityManager): Promise<Invoice> {
    const changes = {
      attempt_count: Number(record.attempt_count) + 1,
      next_payment_attempt: next,
      collection_charge_id: null,
      updated_at: this.clock.now(),
    };
    await this.repository.update(record.application_id, record.id, changes, manager);
    const failed = Object.assign(record, changes);
    await this.events.record(manager, {
      applicationId: record.application_id,
      type: 'invoice.payment_failed',
      object: toInvoiceResponse(failed),
      previous_attributes: { attempt_count: changes.attempt_count - 1 },
    });
    return failed;
  }

  /** The refunds of the invoice's charge now total `amountRefunded` (the refunds module, in its transaction). */
  async recordRefund(applicationId: string, id: string, amountRefunded: number, manager: EntityManager): Promise<void> {
    await this.repository.update(
      applicationId,
      id,
      { amount_refunded: amountRefunded, updated_at: this.clock.now() },
      manager,
    );
  }

  /**
   * In the caller's transaction, `record` locked: draft -> open, its payment method types narrowed
   * to those that can collect its amount due (docs/BILLING.md, "Payment method types of an
   * invoice"), `invoice.finalized`, then the `InvoiceHooks.finalized` listeners (billing schedules
   * collection there).
   */
  async finalizeLocked(record: Invoice, manager: EntityManager, at: Date = this.clock.now()): Promise<Invoice> {
    const before = record.status;
    const payment_method_types = typesCollecting(record.payment_method_types as PaymentMethodType[], {
      country: record.country,
      currency: record.currency,
      amount: invoiceAmountDue(record),
    });
    const changes = { finalized_at: at, payment_method_types, updated_at: this.clock.now() };
    const open = await this.transition(record, 'finalize', changes, manager);
    await this.events.record(manager, {
      applicationId: record.application_id,
      type: 'invoice.finalized',
      object: toInvoiceResponse(open),
      previous_attributes: { status: before },
    });
    await this.hooks.finalized.emit({ invoice: open, manager });
    return open;
  }

  /** In the caller's transaction: the invoice `id`, locked, is voided if still open (a subscription checkout expired unpaid). */
  async voidLocked(applicationId: string, id: string, manager: EntityManager): Promise<void> {
    const found = await this.repository.findById(applicationId, id, manager, true);
    if (found?.status !== 'open') return;
    const now = this.clock.now();
    await this.transition(found, 'void', { voided_at: now, updated_at: now }, manager);
  }

  /**
   * A subscription checkout's open, unpaid first invoice priced again (a promotion code entered on
   * its page), locked in the caller's transaction: `invoice.updated` with the amounts it had. Paid
   * meanwhile: E7002; voided: E7003.
   */
  async reprice(
    applicationId: string,
    id: string,
    input: { lines: InvoiceLineItem[]; subtotal: number; total: number },
    manager: EntityManager,
  ): Promise<Invoice> {
    const found = await this.repository.findById(applicationId, id, manager, true);
    if (!found) throw new AppError(Errors.E4004, `No invoice with id "${id}".`);
    if (found.status === 'paid') throw new AppError(CheckoutErrors.E7002, `Invoice "${id}" is already paid.`);
    if (found.status !== 'open') throw new AppError(CheckoutErrors.E7003, `Invoice "${id}" is ${found.status}.`);
    const before = {
      line_items: found.line_items,
      subtotal: Number(found.subtotal),
      total: Number(found.total),
      updated_at: found.updated_at.toISOString(),
    };
    const changes = {
      line_items: input.lines,
      subtotal: input.subtotal,
      total: input.total,
      updated_at: this.clock.now(),
    };
    await this.repository.update(applicationId, id, changes, manager);
    const updated = Object.assign(found, changes);
    await this.events.record(manager, {
      applicationId,
      type: 'invoice.updated',
      object: toInvoiceResponse(updated),
      previous_attributes: before,
    });
    return updated;
  }

  /**
   * A subscription invoice's types while it is a draft: the registry's defaults for its country and
   * currency that the provider serving the country in this mode collects, before any amount limit
   * (its lines may still change; `finalizeLocked` narrows them to the amount due). Live mode
   * without a provider for the country: the registry's alone (a checkout of it is E5003 anyway).
   */
  private draftPaymentMethodTypes(country: string, currency: string, livemode: boolean): PaymentMethodType[] {
    const provider =
      livemode && !this.providers.hasLive(country) ? undefined : this.providers.forCountry(country, livemode);
    return defaultPaymentMethodTypes({ country, currency, amount: null, provider });
  }

  private async get(principal: Principal, id: string): Promise<Invoice> {
    const invoice = await this.repository.findById(principal.application.id, id);
    if (!invoice) throw new AppError(Errors.E4004, `No invoice with id "${id}".`);
    return invoice;
  }

  private async changeLocked(
    principal: Principal,
    id: string,
    event: 'finalize' | 'void',
    changes: Omit<Partial<Invoice>, 'status'>,
  ): Promise<InvoiceResponse> {
    const applicationId = principal.application.id;
    const invoice = await this.repository.transaction(async (manager) => {
      const found = await this.repository.findById(applicationId, id, manager, true);
      if (!found) throw new AppError(Errors.E4004, `No invoice with id "${id}".`);
      if (event === 'finalize') return this.finalizeLocked(found, manager);
      const before = found.status;
      const voided = await this.transition(found, event, { ...changes, updated_at: this.clock.now() }, manager);
      // Voiding by the API records no event (the invoice's page and checkouts read its status): its audit row.
      await this.audit.record(manager, {
        applicationId,
        action: 'invoice.voided',
        target: { type: 'invoice', id: voided.id },
        before: { status: before },
        after: { status: voided.status },
      });
      return voided;
    });
    return toInvoiceResponse(invoice);
  }

  /** The one write of an invoice's status: the locked `record` after `event`, with `changes`. */
  private async transition(
    record: Invoice,
    event: InvoiceEvent,
    changes: Omit<Partial<Invoice>, 'status'>,
    manager: EntityManager,
  ): Promise<Invoice> {
    const status = invoiceTransition(record.status, event, record.id);
    await this.repository.writeStatus(record.application_id, record.id, status, changes, manager);
    return Object.assign(record, changes, { status });
  }
}

/** What a subscription's invoice is made of: its customer, currency, lines and totals. */
export interface SubscriptionInvoiceInput {
  customerId: string;
  subscriptionId: string;
  currency: string;
  lines: InvoiceLineItem[];
  subtotal: number;
  total: number;
  description: string | null;
}

/** The application and country an invoice is made in; `id` when the caller chose it beforehand. */
interface InvoiceOwner {
  applicationId: string;
  country: string;
  id?: string;
}

function ownerOf(scope: Scope): InvoiceOwner {
  return { applicationId: scope.application.id, country: countryOf(scope) };
}

function subscriptionInvoiceFields(owner: InvoiceOwner, input: SubscriptionInvoiceInput, now: Date) {
  return {
    id: owner.id ?? newId(),
    application_id: owner.applicationId,
    country: owner.country,
    number: invoiceNumber(now),
    customer_id: input.customerId,
    currency: input.currency,
    scaling_factor: scalingFactorOf(input.currency),
    line_items: input.lines,
    subtotal: input.subtotal,
    total: input.total,
    amount_paid: 0,
    description: input.description,
    due_date: null,
    transfer_destination: null,
    application_fee_amount: 0,
    charge_id: null,
    paid_at: null,
    voided_at: null,
    subscription_id: input.subscriptionId,
    metadata: {},
    labels: [],
    created_at: now,
    updated_at: now,
  };
}

function invoiceNumber(now: Date): string {
  const day = now.toISOString().slice(0, 10).replaceAll('-', '');
  const tail = Array.from({ length: 8 }, () => NUMBER_ALPHABET[randomInt(NUMBER_ALPHABET.length)]).join('');
  return `INV-${day}-${tail}`;
}
