import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../../common/clock.js';
import type { Principal } from '../../../common/context/principal.js';
import { AppError } from '../../../common/errors/app-error.js';
import { Errors } from '../../../common/errors/error-catalog.js';
import { EventRecorder } from '../../../common/events/event-recorder.js';
import { newId } from '../../../common/ids.js';
import { runList, type ListEnvelope, type ListQuery, type ListSpec, ListFilters } from '../../../common/list/index.js';
import type { SavedCard, SandboxOutcome, VaultCard } from '../../../providers/ports/collection.port.js';
import { CustomerHooks, CustomersService, type Customer } from '../../customers/index.js';
import { CheckoutErrors } from '../checkout.errors.js';
import type { PaymentMethod } from '../entities/payment-method.entity.js';
import { toPaymentMethodResponse, type PaymentMethodResponse } from '../payments/charges.responses.js';
import { reachProvider } from '../payments/provider-call.js';
import { CollectionProviders } from '../payments/providers/collection-providers.js';
import { NEW_SAVED_STATUS, savedPaymentMethodTransition } from './payment-method.transitions.js';
import { PaymentMethodsRepository } from './payment-methods.repository.js';

export const PAYMENT_METHOD_LIST: ListSpec = {
  filters: {
    id: ListFilters.uuid,
    type: ListFilters.oneOf(['card']),
    status: ListFilters.oneOf(['attached', 'detached']),
    created_at: ListFilters.timestamp,
  },
  sortable: ['created_at'],
  search: ['id', 'reference_id', 'last4'],
};

/** A card to save: what the vault (test mode) or the provider (live) tells of it, never its number. */
export interface CardToSave {
  provider: string;
  /** The provider's card and customer (`card_…`/`cust_…`, `pm_…`/`cus_…`; the sandbox's own). */
  reference: string;
  providerCustomer: string | null;
  card: Omit<VaultCard, 'sandbox_outcome'> & { funding?: string | null };
  sandboxOutcome: SandboxOutcome | null;
}

/**
 * Saved payment methods (docs/COLLECTION.md, "Saved payment methods"): a customer's cards saved by
 * a setup checkout, listed, read and detached by the merchant, and charged off-session. The
 * customers module owns the customer's default method; it asks this service (CustomerHooks) whether
 * a method may be the default, and this service clears the default when its method is detached.
 */
@Injectable()
export class PaymentMethodsService implements OnModuleInit {
  constructor(
    private readonly repository: PaymentMethodsRepository,
    private readonly customers: CustomersService,
    private readonly customerHooks: CustomerHooks,
    private readonly providers: CollectionProviders,
    private readonly events: EventRecorder,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.customerHooks.defaultPaymentMethod.on(async ({ applicationId, customerId, paymentMethodId, manager }) => {
      const pm = await this.attachedTo(applicationId, customerId, paymentMethodId, manager, 'share');
      if (cardExpired(pm, this.clock.now())) {
        throw new AppError(
          CheckoutErrors.E7077,
          `Payment method "${paymentMethodId}" expired at the end of ${pm.exp_month}/${pm.exp_year}.`,
        );
      }
    });
  }

  async list(principal: Principal, customerId: string, query: ListQuery): Promise<ListEnvelope<PaymentMethodResponse>> {
    const customer = await this.customers.get(principal, customerId);
    const qb = this.repository.savedOf('pm', principal.application.id, customer.id);
    return runList(qb, PAYMENT_METHOD_LIST, query, (pm) => toPaymentMethodResponse(pm, null));
  }

  async retrieve(principal: Principal, id: string): Promise<PaymentMethodResponse> {
    return this.toResponse(principal, await this.get(principal.application.id, id));
  }

  /**
   * Detaches a saved method: removed at its provider first, with no transaction open (removing is
   * idempotent there, so a retry after a failure here is safe), then `detached` with
   * `payment_method.detached`, and no longer its customer's default, in one transaction.
   */
  async detach(principal: Principal, id: string): Promise<PaymentMethodResponse> {
    const applicationId = principal.application.id;
    const found = await this.get(applicationId, id);
    savedPaymentMethodTransition(found.status!, 'detach', id);
    const provider = this.providers.named(found.provider ?? 'sandbox', principal.livemode);
    if (provider.detachSavedCard) await reachProvider(() => provider.detachSavedCard!(savedCardOf(found)));
    const detached = await this.repository.transaction(async (manager) => {
      const pm = await this.repository.findSaved(applicationId, id, manager, 'update');
      if (!pm) throw new AppError(Errors.E4004, `No payment method with id "${id}".`);
      const before = { status: pm.status, detached_at: null };
      const now = this.clock.now();
      const status = savedPaymentMethodTransition(pm.status!, 'detach', id);
      const changes = { detached_at: now, updated_at: now };
      await this.repository.writeStatus(applicationId, id, status, changes, manager);
      Object.assign(pm, changes, { status });
      if (pm.customer_id) await this.customers.clearDefaultPaymentMethod(applicationId, pm.customer_id, id, manager);
      await this.events.record(manager, {
        applicationId,
        type: 'payment_method.detached',
        object: toPaymentMethodResponse(pm, null),
        previous_attributes: before,
      });
      return pm;
    });
    return this.toResponse(principal, detached);
  }

  /** Saves `card` to the customer, attached, with `payment_method.attached` (in the caller's transaction). */
  async attach(
    applicationId: string,
    customerId: string,
    save: CardToSave,
    manager: EntityManager,
  ): Promise<PaymentMethod> {
    const now = this.clock.now();
    const pm = await this.repository.insert(
      {
        id: newId(),
        application_id: applicationId,
        customer_id: customerId,
        type: 'card',
        brand: save.card.brand,
        issuer: save.provider === 'sandbox' ? 'Sandbox Bank' : null,
        last4: save.card.last4,
        exp_month: save.card.exp_month,
        exp_year: save.card.exp_year,
        card_holder_name: save.card.name,
        fingerprint: save.card.fingerprint,
        funding: save.card.funding ?? null,
        allow_redisplay: 'always',
        reference_id: save.reference,
        provider: save.provider,
        provider_customer: save.providerCustomer,
        sandbox_outcome: save.sandboxOutcome,
        status: NEW_SAVED_STATUS,
        billing_details: { name: save.card.name },
        created_at: now,
        updated_at: now,
      },
      manager,
    );
    await this.events.record(manager, {
      applicationId,
      type: 'payment_method.attached',
      object: toPaymentMethodResponse(pm, null),
    });
    return pm;
  }

  /**
   * The saved method `id` if it is attached to `customerId`: E7030 when the application has no such
   * saved method, E7031 when it is detached or another customer's. With `lock`, held until
   * `manager`'s transaction ends.
   */
  async attachedTo(
    applicationId: string,
    customerId: string,
    id: string,
    manager?: EntityManager,
    lock?: 'update' | 'share',
  ): Promise<PaymentMethod> {
    const pm = await this.repository.findSaved(applicationId, id, manager, lock);
    if (!pm) throw new AppError(CheckoutErrors.E7030, `No saved payment method with id "${id}".`);
    if (pm.status !== 'attached') throw new AppError(CheckoutErrors.E7031, `Payment method "${id}" is detached.`);
    if (pm.customer_id !== customerId) {
      throw new AppError(CheckoutErrors.E7031, `Payment method "${id}" is not attached to customer "${customerId}".`);
    }
    return pm;
  }

  /** The provider customer already holding the customer's cards at `provider` (reused for the next card). */
  providerCustomerOf(applicationId: string, customerId: string, provider: string): Promise<string | null> {
    return this.repository.providerCustomerOf(applicationId, customerId, provider);
  }

  /** The customer's default payment method id, or null (for callers charging "the default"). */
  async defaultOf(principal: Principal, customerId: string): Promise<string | null> {
    const customer: Customer = await this.customers.get(principal, customerId);
    const id = customer.invoice_settings.default_payment_method;
    return typeof id === 'string' ? id : null;
  }

  private async get(applicationId: string, id: string): Promise<PaymentMethod> {
    const pm = await this.repository.findSaved(applicationId, id);
    if (!pm) throw new AppError(Errors.E4004, `No payment method with id "${id}".`);
    return pm;
  }

  private async toResponse(principal: Principal, pm: PaymentMethod): Promise<PaymentMethodResponse> {
    const customer = pm.customer_id ? await this.customers.find(principal.application.id, pm.customer_id) : null;
    return toPaymentMethodResponse(pm, customer);
  }
}

/** What a provider needs of a saved method to charge or remove it. */
export function savedCardOf(pm: PaymentMethod): SavedCard {
  return {
    reference: pm.reference_id ?? pm.id,
    customer: pm.provider_customer,
    sandbox_outcome: (pm.sandbox_outcome as SandboxOutcome | null) ?? null,
  };
}

/** A card is usable through the last day of its expiry month (UTC); one without an expiry is not judged. */
export function cardExpired(pm: Pick<PaymentMethod, 'exp_month' | 'exp_year'>, now: Date): boolean {
  if (pm.exp_month === null || pm.exp_year === null) return false;
  return pm.exp_year * 12 + pm.exp_month < now.getUTCFullYear() * 12 + now.getUTCMonth() + 1;
}
