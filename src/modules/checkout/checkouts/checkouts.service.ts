import { Injectable } from '@nestjs/common';
import { Clock } from '../../../common/clock.js';
import { AppError } from '../../../common/errors/app-error.js';
import { countryOf, type Scope } from '../../../common/context/principal.js';
import { Errors } from '../../../common/errors/error-catalog.js';
import { newId } from '../../../common/ids.js';
import { runList, type ListEnvelope, type ListQuery, type ListSpec, ListFilters } from '../../../common/list/index.js';
import { SessionsService } from '../../auth/index.js';
import { CheckoutExpiryService } from './checkout-expiry.service.js';
import { CheckoutErrors } from '../checkout.errors.js';
import { CollectionRepository } from '../checkout.repository.js';
import { toCheckoutResponse, type CheckoutResponse } from '../checkout.responses.js';
import { CHECKOUT_LIFETIME_MS, CHECKOUT_SESSION_TTL_SECONDS, type PaymentMethodType } from '../checkout-rules.js';
import type { CreateCheckoutDto } from '../dto/checkout.dto.js';
import { Checkout, type CheckoutStatus } from '../entities/checkout.entity.js';
import type { PaymentLink } from '../entities/payment-link.entity.js';
import { HostedUrls } from './hosted-urls.js';
import { CollectionProviders } from '../payments/providers/collection-providers.js';
import { TargetsService } from '../targets/targets.service.js';
import { NEW_CHECKOUT_STATUS } from './checkout.transitions.js';

export const CHECKOUT_LIST: ListSpec = {
  filters: {
    id: ListFilters.uuid,
    target_type: ListFilters.oneOf(['invoice', 'payment_intent']),
    target_id: ListFilters.uuid,
    payment_link_id: ListFilters.uuid,
    customer_id: ListFilters.uuid,
    // The status a read answers (effectiveStatus), so the filter is exact between expiry sweeps.
    status: {
      type: 'text',
      values: ['open', 'complete', 'expired'],
      column: `CASE WHEN co.status = 'open' AND co.expires_at <= :statusAsOf THEN 'expired' ELSE co.status END`,
    },
    payment_status: ListFilters.oneOf(['unpaid', 'paid']),
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

@Injectable()
export class CheckoutsService {
  constructor(
    private readonly repository: CollectionRepository,
    private readonly targets: TargetsService,
    private readonly sessions: SessionsService,
    private readonly expiry: CheckoutExpiryService,
    private readonly urls: HostedUrls,
    private readonly clock: Clock,
    private readonly providers: CollectionProviders,
  ) {}

  /**
   * A checkout on an invoice or a payment intent. Everything it collects comes from the target;
   * the request may only narrow the payment method types. The answer carries the one-time
   * session (once) and the page URL with the session in its fragment.
   */
  async create(scope: Scope, dto: CreateCheckoutDto, link: PaymentLink | null = null): Promise<CheckoutResponse> {
    if (dto.mode !== undefined && dto.mode !== 'payment') {
      throw new AppError(CheckoutErrors.E7009, `mode "${dto.mode}" is not supported; use "payment".`);
    }
    if (dto.subscription_data !== undefined) {
      throw new AppError(CheckoutErrors.E7009, 'subscription_data needs mode "subscription", which is not supported.');
    }
    if (dto.promotion_code !== undefined) {
      throw new AppError(CheckoutErrors.E7010, `No promotion code "${dto.promotion_code}".`);
    }
    const applicationId = scope.application.id;
    const country = countryOf(scope);
    // Live mode without a live collection provider for the country: E5003 before anything is written.
    this.providers.forCountry(country, scope.livemode);
    const target = await this.targets.load(applicationId, dto.target_type, dto.target_id);
    this.targets.assertPayable(target, country);
    const terms = this.targets.terms(target);
    if (terms.customer_id) await this.targets.chargeableCustomer(scope, terms.customer_id);
    if (terms.transfer_destination) await this.targets.assertDestination(scope, terms.transfer_destination);
    const types = (dto.payment_method_types as PaymentMethodType[] | undefined) ?? terms.payment_method_types;
    const refused = types.filter((t) => !terms.payment_method_types.includes(t));
    if (refused.length > 0) {
      throw new AppError(
        CheckoutErrors.E7007,
        `payment_method_types: ${refused.join(', ')} not allowed by the ${dto.target_type} (allowed: ${terms.payment_method_types.join(', ')}).`,
      );
    }

    const id = newId();
    const session = await this.sessions.issue({
      purpose: 'checkout',
      targetId: id,
      ttlSeconds: CHECKOUT_SESSION_TTL_SECONDS,
    });
    const now = this.clock.now();
    const checkout = await this.repository.insert(Checkout, {
      id,
      application_id: applicationId,
      country,
      status: NEW_CHECKOUT_STATUS,
      payment_status: 'unpaid',
      target_type: dto.target_type,
      target_id: target.record.id,
      payment_link_id: link?.id ?? null,
      ...terms,
      payment_method_types: types,
      success_url: dto.success_url ?? null,
      cancel_url: dto.cancel_url ?? null,
      mode: 'payment',
      line_items: dto.line_items?.map((l) => ({ price: l.price, quantity: l.quantity })) ?? [],
      allow_promotion_codes: dto.allow_promotion_codes ?? false,
      payment_method_collection: dto.payment_method_collection ?? null,
      subscription_data: null,
      session_id: session.sessionId,
      charge_id: null,
      pending_charge_id: null,
      expires_at: new Date(now.getTime() + CHECKOUT_LIFETIME_MS),
      completed_at: null,
      expired_at: null,
      metadata: dto.metadata ?? {},
      created_at: now,
      updated_at: now,
    });
    return this.toResponse(scope, checkout, session.token);
  }

  async retrieve(scope: Scope, id: string): Promise<CheckoutResponse> {
    return this.toResponse(scope, await this.get(scope, id));
  }

  list(scope: Scope, query: ListQuery): Promise<ListEnvelope<CheckoutResponse>> {
    const qb = this.repository.query(Checkout, 'co', scope.application.id).setParameter('statusAsOf', this.clock.now());
    return runList(qb, CHECKOUT_LIST, query, (c) => this.toResponse(scope, c));
  }

  /**
   * Test helper: the checkout expires now, as it would after 24 hours (or as of its own expiry if
   * that has passed), leaving exactly what the expiry sweep leaves (CheckoutExpiryService).
   */
  async expireForTest(scope: Scope, id: string): Promise<CheckoutResponse> {
    const applicationId = scope.application.id;
    const checkout = await this.repository.transaction(async (manager) => {
      const found = await this.repository.find(Checkout, applicationId, id, manager, true);
      if (!found) throw new AppError(Errors.E4004, `No checkout with id "${id}".`);
      if (found.status === 'complete') throw new AppError(CheckoutErrors.E7006, `Checkout "${id}" is complete.`);
      if (found.status === 'expired') return found;
      const now = this.clock.now();
      await this.expiry.expireLocked(
        scope.application,
        found,
        found.expires_at < now ? found.expires_at : now,
        manager,
      );
      return found;
    });
    return this.toResponse(scope, checkout);
  }

  async get(scope: Scope, id: string): Promise<Checkout> {
    const checkout = await this.repository.find(Checkout, scope.application.id, id);
    if (!checkout) throw new AppError(Errors.E4004, `No checkout with id "${id}".`);
    return checkout;
  }

  toResponse(scope: Scope, checkout: Checkout, session: string | null = null): CheckoutResponse {
    const now = this.clock.now();
    const status = effectiveStatus(checkout, now);
    const record = status === checkout.status ? checkout : { ...checkout, status, expired_at: checkout.expires_at };
    return toCheckoutResponse(record as Checkout, this.urls.checkout(scope.application.slug, checkout.id), session);
  }
}
