import { Injectable } from '@nestjs/common';
import { AuditRecorder } from '../../../common/audit/audit-recorder.js';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../../common/clock.js';
import { AppError } from '../../../common/errors/app-error.js';
import { countryOf, type ApplicationRef, type Scope } from '../../../common/context/principal.js';
import { Errors } from '../../../common/errors/error-catalog.js';
import { EventRecorder } from '../../../common/events/event-recorder.js';
import { newId } from '../../../common/ids.js';
import { runList, type ListEnvelope, type ListQuery, type ListSpec, ListFilters } from '../../../common/list/index.js';
import { SessionsService } from '../../auth/index.js';
import { CheckoutErrors } from '../checkout.errors.js';
import { toCheckoutResponse, type CheckoutResponse } from '../checkout.responses.js';
import {
  CHECKOUT_LIFETIME_MS,
  CHECKOUT_SESSION_TTL_SECONDS,
  COUNTRY_CURRENCY,
  checkedPaymentMethodTypes,
  typesCollecting,
} from '../checkout-rules.js';
import { scalingFactorOf } from '../../ledger/index.js';
import { assertSetupRequest, type OpeningFields } from './setup-mode.js';
import { SUBSCRIPTION_CHECKOUT_LIFETIME_MS } from './subscription-mode.js';
import { SubscriptionOpening } from './subscription-opening.service.js';
import { type PaymentMethodType } from '../../../providers/ports/collection.port.js';
import type { CreateCheckoutDto } from '../dto/checkout.dto.js';
import type { Checkout, CheckoutStatus } from '../entities/checkout.entity.js';
import type { PaymentLink } from '../entities/payment-link.entity.js';
import { HostedUrls } from './hosted-urls.js';
import { CollectionProviders } from '../payments/providers/collection-providers.js';
import { TargetsService } from '../targets/targets.service.js';
import { checkoutTransition, NEW_CHECKOUT_STATUS, type CheckoutEvent } from './checkout.transitions.js';
import { CheckoutsRepository, type ExpiryWork } from './checkouts.repository.js';

export type { ExpiryWork } from './checkouts.repository.js';

export const CHECKOUT_LIST: ListSpec = {
  filters: {
    id: ListFilters.uuid,
    target_type: ListFilters.oneOf(['invoice', 'payment_intent', 'customer']),
    mode: ListFilters.oneOf(['payment', 'setup', 'subscription']),
    target_id: ListFilters.uuid,
    payment_link_id: ListFilters.uuid,
    customer_id: ListFilters.uuid,
    // The status a read answers (effectiveStatus), so the filter is exact between expiry sweeps.
    status: {
      type: 'text',
      values: ['open', 'complete', 'expired'],
      column: `CASE WHEN co.status = 'open' AND co.expires_at <= :statusAsOf THEN 'expired' ELSE co.status END`,
    },
    payment_status: ListFilters.oneOf(['unpaid', 'paid', 'no_payment_required']),
    created_at: ListFilters.timestamp,
    expires_at: ListFilters.timestamp,
  },
  sortable: ['created_at', 'expires_at'],
  search: ['id', 'target_id'],
};

/** A checkout past its expiry is `expired` whether or not the row has been updated yet. */
export function effectiveStatus(c: Checkout, now: Date): CheckoutStatus {
  return c.status === 'open' && c.expires_at.getTime() <= now.getTime() ? 'expired' : c.status;
}

/**
 * Checkouts: created and read by the merchant; their payment attempt and their end (`complete`,
 * `expire`) changed only through the methods here, which payments and the expiry job call in
 * their transaction with the checkout locked.
 */
@Injectable()
export class CheckoutsService {
  constructor(
    private readonly repository: CheckoutsRepository,
    private readonly targets: TargetsService,
    private readonly sessions: SessionsService,
    private readonly events: EventRecorder,
    private readonly urls: HostedUrls,
    private readonly clock: Clock,
    private readonly providers: CollectionProviders,
    private readonly subscriptionOpening: SubscriptionOpening,
    private readonly audit: AuditRecorder,
  ) {}

  /**
   * A checkout on an invoice or a payment intent. Everything it collects comes from the target;
   * the request may only narrow the payment method types. The answer carries the one-time
   * session (once) and the page URL with the session in its fragment.
   */
  async create(scope: Scope, dto: CreateCheckoutDto, link: PaymentLink | null = null): Promise<CheckoutResponse> {
    if (dto.mode === 'subscription') return this.openSubscription(scope, dto, link);
    if (dto.subscription_data !== undefined) {
      throw new AppError(CheckoutErrors.E7075, 'subscription_data needs mode "subscription".');
    }
    if (dto.promotion_code !== undefined) {
      throw new AppError(
        CheckoutErrors.E7010,
        `promotion_code "${dto.promotion_code}": promotion codes apply to checkouts in mode "subscription".`,
      );
    }
    const fields = dto.mode === 'setup' ? await this.setupFields(scope, dto) : await this.paymentFields(scope, dto);
    const session = await this.issueSession();
    const checkout = await this.repository.transaction((manager) =>
      this.insert(scope, dto, fields, link, session, manager),
    );
    return this.toResponse(scope, checkout, session.token);
  }

  /**
   * A subscription checkout (docs/BILLING.md, "Subscription checkout"): the subscription, its first
   * invoice and this checkout in ONE transaction (SubscriptionOpening), the session issued first.
   */
  private async openSubscription(
    scope: Scope,
    dto: CreateCheckoutDto,
    link: PaymentLink | null,
  ): Promise<CheckoutResponse> {
    const prepared = await this.subscriptionOpening.prepare(scope, dto);
    const session = await this.issueSession();
    const checkout = await this.repository.transaction(async (manager) => {
      const { fields, extra } = await this.subscriptionOpening.open(scope, dto, prepared, manager);
      return this.insert(scope, dto, fields, link, session, manager, extra);
    });
    return this.toResponse(scope, checkout, session.token);
  }

  /** A payment checkout: what it collects comes from its target (an invoice or a payment intent). */
  private async paymentFields(scope: Scope, dto: CreateCheckoutDto): Promise<OpeningFields> {
    if (dto.target_type === 'customer') {
      throw new AppError(CheckoutErrors.E7033, 'target_type "customer" is for checkouts in mode "setup".');
    }
    const applicationId = scope.application.id;
    const country = countryOf(scope);
    // Live mode without a live collection provider for the country: E5003 before anything is written.
    const provider = this.providers.forCountry(country, scope.livemode);
    const target = await this.targets.load(applicationId, dto.target_type, dto.target_id);
    this.targets.assertPayable(target, country);
    const terms = this.targets.terms(target);
    if (terms.customer_id) await this.targets.chargeableCustomer(scope, terms.customer_id);
    if (terms.transfer_destination) await this.targets.assertDestination(scope, terms.transfer_destination);
    const requested = dto.payment_method_types as PaymentMethodType[] | undefined;
    const refused = (requested ?? []).filter((t) => !terms.payment_method_types.includes(t));
    if (refused.length > 0) {
      throw new AppError(
        CheckoutErrors.E7007,
        `payment_method_types: ${refused.join(', ')} not allowed by the ${dto.target_type} (allowed: ${terms.payment_method_types.join(', ')}).`,
      );
    }
    // The registry again, for this checkout's country, provider and amount due: a narrowed type that
    // cannot collect it is refused precisely; of the target's own types, those that cannot are left out.
    const payment = { country, currency: terms.currency, amount: terms.amount, provider };
    const types = requested
      ? checkedPaymentMethodTypes(requested, payment)
      : typesCollecting(terms.payment_method_types, payment);
    if (types.length === 0) {
      throw new AppError(
        CheckoutErrors.E7007,
        `None of the ${dto.target_type}'s payment_method_types (${terms.payment_method_types.join(', ')}) can collect ${terms.amount} ${terms.currency} in ${country}.`,
      );
    }
    return {
      mode: 'payment',
      target_type: dto.target_type,
      target_id: target.record.id,
      ...terms,
      payment_method_types: types,
    };
  }

  /**
   * A setup checkout (docs/COLLECTION.md, "Saved payment methods"): its target is the customer whose
   * card it saves; nothing is charged (amount 0, the customer's currency or the country's).
   */
  private async setupFields(scope: Scope, dto: CreateCheckoutDto): Promise<OpeningFields> {
    const country = countryOf(scope);
    assertSetupRequest(dto, this.providers.forCountry(country, scope.livemode));
    const customer = await this.targets.chargeableCustomer(scope, dto.target_id);
    const currency = customer.currency ?? COUNTRY_CURRENCY[country] ?? 'THB';
    return {
      mode: 'setup',
      target_type: 'customer',
      target_id: customer.id,
      amount: 0,
      currency,
      scaling_factor: scalingFactorOf(currency),
      customer_id: customer.id,
      transfer_destination: null,
      application_fee_amount: 0,
      payment_method_types: ['card'],
    };
  }

  /** A new checkout's id and its one-time session (issued before any transaction opens). */
  private async issueSession(): Promise<{ id: string; sessionId: string; token: string }> {
    const id = newId();
    const session = await this.sessions.issue({
      purpose: 'checkout',
      targetId: id,
      ttlSeconds: CHECKOUT_SESSION_TTL_SECONDS,
    });
    return { id, sessionId: session.sessionId, token: session.token };
  }

  /** The checkout row and its audit row, in `manager`'s transaction. */
  private async insert(
    scope: Scope,
    dto: CreateCheckoutDto,
    fields: OpeningFields,
    link: PaymentLink | null,
    session: { id: string; sessionId: string },
    manager: EntityManager,
    extra: Pick<Checkout, 'subscription_id' | 'invoice_id' | 'subscription_data'> = {
      subscription_id: null,
      invoice_id: null,
      subscription_data: null,
    },
  ): Promise<Checkout> {
    const applicationId = scope.application.id;
    const country = countryOf(scope);
    const id = session.id;
    const now = this.clock.now();
    const checkout = await this.repository.insert(
      {
        id,
        application_id: applicationId,
        country,
        status: NEW_CHECKOUT_STATUS,
        payment_status: 'unpaid',
        payment_link_id: link?.id ?? null,
        ...fields,
        success_url: dto.success_url ?? null,
        cancel_url: dto.cancel_url ?? null,
        line_items: dto.line_items?.map((l) => ({ price: l.price, quantity: l.quantity })) ?? [],
        allow_promotion_codes: dto.allow_promotion_codes ?? false,
        payment_method_collection: dto.payment_method_collection ?? null,
        ...extra,
        session_id: session.sessionId,
        charge_id: null,
        pending_charge_id: null,
        setup_payment_method: null,
        // A subscription checkout ends no later than its incomplete subscription (23 hours).
        expires_at: new Date(
          now.getTime() + (fields.mode === 'subscription' ? SUBSCRIPTION_CHECKOUT_LIFETIME_MS : CHECKOUT_LIFETIME_MS),
        ),
        completed_at: null,
        expired_at: null,
        metadata: dto.metadata ?? {},
        created_at: now,
        updated_at: now,
      },
      manager,
    );
    await this.audit.record(manager, {
      applicationId,
      action: 'checkout.created',
      target: { type: 'checkout', id },
      metadata: { mode: fields.mode, ...(link ? { payment_link_id: link.id } : {}) },
    });
    return checkout;
  }

  /** A transaction of the checkout's mode, for flows that lock a checkout and change what it collects. */
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.repository.transaction(work);
  }

  async retrieve(scope: Scope, id: string): Promise<CheckoutResponse> {
    return this.toResponse(scope, await this.get(scope, id));
  }

  list(scope: Scope, query: ListQuery): Promise<ListEnvelope<CheckoutResponse>> {
    const qb = this.repository.listQuery('co', scope.application.id).setParameter('statusAsOf', this.clock.now());
    return runList(qb, CHECKOUT_LIST, query, (c) => this.toResponse(scope, c));
  }

  async get(scope: Scope, id: string): Promise<Checkout> {
    const checkout = await this.repository.findById(scope.application.id, id);
    if (!checkout) throw new AppError(Errors.E4004, `No checkout with id "${id}".`);
    return checkout;
  }

  /** The checkout, or null; `lock` holds it FOR UPDATE until `manager`'s transaction ends. */
  find(applicationId: string, id: string, manager?: EntityManager, lock = false): Promise<Checkout | null> {
    return this.repository.findById(applicationId, id, manager, lock);
  }

  /** The checkout whose payment attempt in progress is `chargeId`, or null. */
  pendingOn(applicationId: string, chargeId: string): Promise<Checkout | null> {
    return this.repository.pendingOn(applicationId, chargeId);
  }

  /** The checkout a charge was an attempt of (see CheckoutsRepository.ofCharge), or null. */
  ofCharge(
    applicationId: string,
    charge: { id: string; payment_intent: string | null; invoice_id: string | null },
  ): Promise<Checkout | null> {
    return this.repository.ofCharge(applicationId, charge);
  }

  /** The locked checkout now waits on the payment attempt `chargeId` (null: on none). */
  async setPending(checkout: Checkout, chargeId: string | null, manager: EntityManager): Promise<void> {
    const changes = { pending_charge_id: chargeId, updated_at: this.clock.now() };
    await this.repository.update(checkout.application_id, checkout.id, changes, manager);
    Object.assign(checkout, changes);
  }

  /**
   * The locked open subscription checkout collects `amount` now: its first invoice was priced again
   * (a promotion code entered on its page, whose `invoice.updated` records the change).
   */
  async reprice(checkout: Checkout, amount: number, manager: EntityManager): Promise<void> {
    const changes = { amount, updated_at: this.clock.now() };
    await this.repository.update(checkout.application_id, checkout.id, changes, manager);
    Object.assign(checkout, changes);
  }

  /**
   * The locked open checkout is paid by `chargeId` (`unpaid`: only authorized, captured later by the
   * merchant): `checkout.completed`.
   */
  async complete(
    scope: Scope,
    checkout: Checkout,
    chargeId: string,
    manager: EntityManager,
    paymentStatus: 'paid' | 'unpaid' = 'paid',
  ): Promise<void> {
    const before = {
      status: checkout.status,
      payment_status: checkout.payment_status,
      completed_at: null,
      charge_id: checkout.charge_id,
      updated_at: checkout.updated_at.toISOString(),
    };
    const now = this.clock.now();
    const changes = {
      payment_status: paymentStatus,
      completed_at: now,
      charge_id: chargeId,
      pending_charge_id: null,
      updated_at: now,
    };
    await this.transition(checkout, 'complete', changes, manager);
    await this.events.record(manager, {
      applicationId: checkout.application_id,
      type: 'checkout.completed',
      object: this.toResponse(scope, checkout),
      previous_attributes: before,
    });
  }

  /**
   * The locked open setup checkout saved `paymentMethodId`: `checkout.completed` (docs/COLLECTION.md,
   * "Saved payment methods"); nothing was paid, so `payment_status` is `no_payment_required`.
   */
  async completeSetup(scope: Scope, checkout: Checkout, paymentMethodId: string, manager: EntityManager) {
    const before = {
      status: checkout.status,
      payment_status: checkout.payment_status,
      completed_at: null,
      setup_payment_method: null,
      updated_at: checkout.updated_at.toISOString(),
    };
    const now = this.clock.now();
    const changes = {
      payment_status: 'no_payment_required' as const,
      completed_at: now,
      setup_payment_method: paymentMethodId,
      updated_at: now,
    };
    await this.transition(checkout, 'complete', changes, manager);
    await this.events.record(manager, {
      applicationId: checkout.application_id,
      type: 'checkout.completed',
      object: this.toResponse(scope, checkout),
      previous_attributes: before,
    });
  }

  /**
   * The locked open checkout expires as of `expiredAt` (its `expires_at`, or earlier for the test
   * helper): `checkout.expired`. Its pending charge is the caller's to fail first.
   */
  async expire(application: ApplicationRef, checkout: Checkout, expiredAt: Date, manager: EntityManager) {
    const before = { status: checkout.status, expires_at: checkout.expires_at.toISOString(), expired_at: null };
    const changes = {
      expires_at: expiredAt,
      expired_at: expiredAt,
      pending_charge_id: null,
      updated_at: this.clock.now(),
    };
    await this.transition(checkout, 'expire', changes, manager);
    await this.events.record(manager, {
      applicationId: checkout.application_id,
      type: 'checkout.expired',
      object: toCheckoutResponse(checkout, this.urls.checkout(application.slug, checkout.id)),
      previous_attributes: before,
    });
  }

  /** The applications having open checkouts expired at `now` (read with no lock, before a sweep). */
  applicationsWithExpired(now: Date, applicationIds: readonly string[] | null): Promise<string[]> {
    return this.repository.applicationsWithExpired(now, applicationIds);
  }

  /** Up to `limit` open checkouts with expiry work, locked by `manager` and skipped by other replicas. */
  claimExpiring(
    manager: EntityManager,
    what: ExpiryWork,
    now: Date,
    applicationIds: readonly string[] | null,
    limit: number,
  ): Promise<Checkout[]> {
    return this.repository.claimExpiring(manager, what, now, applicationIds, limit);
  }

  toResponse(scope: Scope, checkout: Checkout, session: string | null = null): CheckoutResponse {
    const now = this.clock.now();
    const status = effectiveStatus(checkout, now);
    const record = status === checkout.status ? checkout : { ...checkout, status, expired_at: checkout.expires_at };
    return toCheckoutResponse(record as Checkout, this.urls.checkout(scope.application.slug, checkout.id), session);
  }

  /** The one write of a checkout's status: the locked `checkout` after `event`, with `changes`. */
  private async transition(
    checkout: Checkout,
    event: CheckoutEvent,
    changes: Omit<Partial<Checkout>, 'status'>,
    manager: EntityManager,
  ): Promise<void> {
    const status = checkoutTransition(checkout.status, event, checkout.id);
    await this.repository.writeStatus(checkout.application_id, checkout.id, status, changes, manager);
    Object.assign(checkout, changes, { status });
  }
}
