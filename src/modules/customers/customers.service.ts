import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AuditRecorder } from '../../common/audit/audit-recorder.js';
import { CacheInvalidation } from '../../common/cache/invalidation.js';
import type { Principal } from '../../common/context/principal.js';
import { AppError } from '../../common/errors/app-error.js';
import { Errors } from '../../common/errors/error-catalog.js';
import { IdempotencyScope } from '../../common/idempotency/idempotency-scope.js';
import { newId } from '../../common/ids.js';
import { runList, type ListEnvelope, type ListQuery, type ListSpec, ListFilters } from '../../common/list/index.js';
import { CustomerHooks } from './customer-hooks.js';
import { CustomerTestClocks } from './customer-test-clocks.js';
import { CustomersRepository } from './customers.repository.js';
import type { CreateCustomerDto } from './dto/create-customer.dto.js';
import type { UpdateCustomerDto } from './dto/update-customer.dto.js';
import type { Customer } from './entities/customer.entity.js';
import { toCustomerResponse, type CustomerResponse } from './customers.responses.js';

export const CUSTOMER_LIST: ListSpec = {
  filters: {
    id: ListFilters.uuid,
    email: ListFilters.text,
    name: ListFilters.text,
    currency: ListFilters.text,
    created_at: ListFilters.timestamp,
    updated_at: ListFilters.timestamp,
    labels: ListFilters.labels,
    is_system: ListFilters.boolean,
    test_clock: { type: 'uuid', column: 'c.test_clock_id' },
  },
  sortable: ['created_at', 'updated_at'],
  search: ['id', 'name', 'email', 'business_name', 'phone'],
};

/** Published (`<application id>:<customer id>`) when a customer's billing reference changes. */
export const CUSTOMER_REFERENCE_CHANNEL = 'customer_reference';

@Injectable()
export class CustomersService {
  constructor(
    private readonly customers: CustomersRepository,
    private readonly hooks: CustomerHooks,
    private readonly invalidation: CacheInvalidation,
    private readonly idempotency: IdempotencyScope,
    private readonly testClocks: CustomerTestClocks,
    private readonly audit: AuditRecorder,
  ) {}

  /**
   * The customer is committed with the request's idempotency recovery point, so a resend of a keyed
   * request that lost its answer gets this customer (its billing reference asked for again if the
   * first attempt ended before it), never a second one (docs/IDEMPOTENCY.md).
   */
  async create(principal: Principal, dto: CreateCustomerDto): Promise<CustomerResponse> {
    const resumed = this.idempotency.resumes('customer');
    if (resumed) {
      const customer = await this.get(principal, resumed);
      if (!customer.provider_reference) await this.hooks.created.emit({ customer, country: principal.country });
      return toCustomerResponse(customer);
    }
    const customer = await this.customers.transaction(async (manager) => {
      if (dto.test_clock !== undefined) await this.testClocks.assertUsable(principal, dto.test_clock, manager);
      const inserted = await this.customers.insert(
        {
          id: newId(),
          application_id: principal.application.id,
          name: dto.name ?? null,
          email: dto.email ?? null,
          phone: dto.phone ?? null,
          tax_exempt: dto.tax_exempt ?? 'none',
          business_name: dto.business_name ?? null,
          currency: dto.currency ?? null,
          is_system: false,
          is_application_customer: false,
          address: dto.address ?? null,
          shipping: dto.shipping ?? null,
          capabilities: { charge: true, transfer: false, payout: false, ...dto.capabilities },
          tax_ids: (dto.tax_ids ?? []).map((t) => ({
            type: t.type,
            value: t.value,
            country: t.country ?? null,
            verification_status: 'pending',
          })),
          metadata: dto.metadata ?? {},
          labels: dto.labels ?? [],
          invoice_settings: dto.invoice_settings ?? {},
          preferred_locales: dto.preferred_locales ?? [],
          kyc_status: dto.kyc_status ?? 'not_required',
          test_clock_id: dto.test_clock ?? null,
        },
        manager,
      );
      await this.idempotency.checkpoint(manager, 'customer', inserted.id);
      await this.audit.record(manager, {
        applicationId: inserted.application_id,
        action: 'customer.created',
        target: { type: 'customer', id: inserted.id },
      });
      return inserted;
    });
    await this.hooks.created.emit({ customer, country: principal.country });
    return toCustomerResponse(customer);
  }

  /** Records which billing provider serves the customer (of `customer.application_id`) and its reference there. */
  async setProviderReference(customer: Customer, provider: string, reference: string): Promise<void> {
    await this.customers.update(customer.application_id, customer.id, { provider, provider_reference: reference });
    // Caches of the reference (meter event ingestion) on every replica forget it.
    await this.invalidation.publish(CUSTOMER_REFERENCE_CHANNEL, `${customer.application_id}:${customer.id}`);
  }

  /**
   * Changes the fields sent. A new `invoice_settings.default_payment_method` is checked by the
   * module owning payment methods (CustomerHooks.defaultPaymentMethod), which locks it for this
   * transaction: it must be attached to this customer.
   */
  async update(principal: Principal, id: string, dto: UpdateCustomerDto): Promise<CustomerResponse> {
    const applicationId = principal.application.id;
    const customer = await this.customers.transaction(async (manager) => {
      const found = await this.customers.findById(applicationId, id, manager);
      if (!found) throw new AppError(Errors.E4004, `No customer with id "${id}".`);
      const chosen = dto.invoice_settings?.default_payment_method;
      if (chosen) {
        await this.hooks.defaultPaymentMethod.emit({ applicationId, customerId: id, paymentMethodId: chosen, manager });
      }
      const changes: Partial<Customer> = {
        ...(dto.name !== undefined ? { name: dto.name } : {}),
        ...(dto.email !== undefined ? { email: dto.email } : {}),
        ...(dto.phone !== undefined ? { phone: dto.phone } : {}),
        ...(dto.business_name !== undefined ? { business_name: dto.business_name } : {}),
        ...(dto.metadata !== undefined ? { metadata: dto.metadata } : {}),
        ...(dto.labels !== undefined ? { labels: dto.labels } : {}),
        ...(chosen !== undefined
          ? { invoice_settings: { ...found.invoice_settings, default_payment_method: chosen } }
          : {}),
      };
      if (Object.keys(changes).length === 0) return found;
      await this.customers.update(applicationId, id, changes, manager);
      // A customer is personal data, not configuration: the row names the fields changed, not their values.
      await this.audit.record(manager, {
        applicationId,
        action: 'customer.updated',
        target: { type: 'customer', id },
        metadata: { fields: Object.keys(changes).sort() },
      });
      // updated_at is the database's (UpdateDateColumn): read the row back as stored.
      return (await this.customers.findById(applicationId, id, manager))!;
    });
    return toCustomerResponse(customer);
  }

  /**
   * For the module owning payment methods, in its transaction: `paymentMethodId` (checked by it)
   * becomes the customer's default; with `onlyIfNone`, only when the customer has none yet.
   */
  async setDefaultPaymentMethod(
    applicationId: string,
    customerId: string,
    paymentMethodId: string,
    manager: EntityManager,
    onlyIfNone = false,
  ): Promise<boolean> {
    const found = await this.customers.findById(applicationId, customerId, manager);
    if (!found) return false;
    if (onlyIfNone && found.invoice_settings.default_payment_method) return false;
    const invoice_settings = { ...found.invoice_settings, default_payment_method: paymentMethodId };
    await this.customers.update(applicationId, customerId, { invoice_settings }, manager);
    return true;
  }

  /** For the module owning payment methods: a detached method stops being its customer's default. */
  clearDefaultPaymentMethod(
    applicationId: string,
    customerId: string,
    paymentMethodId: string,
    manager: EntityManager,
  ): Promise<void> {
    return this.customers.clearDefaultPaymentMethod(applicationId, customerId, paymentMethodId, manager);
  }

  async retrieve(principal: Principal, id: string): Promise<CustomerResponse> {
    return toCustomerResponse(await this.get(principal, id));
  }

  /** For other modules: the customer entity of the principal's application and mode, or E4004. */
  async get(principal: Principal, id: string): Promise<Customer> {
    const customer = await this.customers.findById(principal.application.id, id);
    if (!customer) throw new AppError(Errors.E4004, `No customer with id "${id}".`);
    return customer;
  }

  /**
   * Customers of an application by id (for the records that embed their customer). With `manager`,
   * read in the caller's transaction: a second connection would wait forever on the embedded
   * database, which serves one connection at a time while a transaction is open.
   */
  async byIds(
    applicationId: string,
    ids: Array<string | null>,
    manager?: EntityManager,
  ): Promise<Map<string, Customer>> {
    const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
    if (wanted.length === 0) return new Map();
    return new Map((await this.customers.findMany(applicationId, wanted, manager)).map((c) => [c.id, c]));
  }

  /**
   * For other modules: the customer of an application in the bound mode, or null (also for an id
   * that is not a UUID). By application id, since some callers (a payment link's hosted page
   * opening a checkout) act for an application without a principal.
   */
  find(applicationId: string, id: string): Promise<Customer | null> {
    return this.customers.findById(applicationId, id);
  }

  /** For test clocks: the customers living on a deleted clock move to the service clock. */
  async detachTestClock(applicationId: string, testClockId: string, manager: EntityManager): Promise<void> {
    await this.customers.detachTestClock(applicationId, testClockId, manager);
  }

  list(principal: Principal, query: ListQuery): Promise<ListEnvelope<CustomerResponse>> {
    return runList(this.customers.query(principal.application.id), CUSTOMER_LIST, query, toCustomerResponse);
  }
}
