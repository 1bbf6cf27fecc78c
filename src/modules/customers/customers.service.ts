import { Injectable } from '@nestjs/common';
import type { Principal } from '../../common/context/principal.js';
import { RequestContext } from '../../common/context/request-context.js';
import { AppError } from '../../common/errors/app-error.js';
import { Errors } from '../../common/errors/error-catalog.js';
import { newId } from '../../common/ids.js';
import { runList, type ListEnvelope, type ListQuery, type ListSpec } from '../../common/list/index.js';
import { CustomerHooks } from './customer-hooks.js';
import { CustomersRepository } from './customers.repository.js';
import type { CreateCustomerDto } from './dto/create-customer.dto.js';
import type { Customer } from './entities/customer.entity.js';

export const CUSTOMER_LIST: ListSpec = {
  filters: {
    id: { type: 'uuid' },
    email: { type: 'text' },
    name: { type: 'text' },
    currency: { type: 'text' },
    created_at: { type: 'timestamp' },
    updated_at: { type: 'timestamp' },
    labels: { type: 'labels' },
    is_system: { type: 'boolean' },
  },
  sortable: ['created_at', 'updated_at'],
  search: ['id', 'name', 'email', 'business_name', 'phone'],
};

export function toCustomerResponse(c: Customer) {
  return {
    id: c.id,
    object: 'customer' as const,
    livemode: c.livemode,
    name: c.name,
    email: c.email,
    phone: c.phone,
    tax_exempt: c.tax_exempt,
    business_name: c.business_name,
    currency: c.currency,
    is_system: c.is_system,
    is_application_customer: c.is_application_customer,
    address: c.address,
    shipping: c.shipping,
    capabilities: c.capabilities,
    tax_ids: c.tax_ids,
    metadata: c.metadata,
    labels: c.labels,
    invoice_settings: c.invoice_settings,
    preferred_locales: c.preferred_locales,
    created_at: c.created_at.toISOString(),
    updated_at: c.updated_at.toISOString(),
  };
}

export type CustomerResponse = ReturnType<typeof toCustomerResponse>;

@Injectable()
export class CustomersService {
  constructor(
    private readonly customers: CustomersRepository,
    private readonly context: RequestContext,
    private readonly hooks: CustomerHooks,
  ) {}

  private get applicationId(): string {
    return this.context.application.id;
  }

  async create(_principal: Principal, dto: CreateCustomerDto): Promise<CustomerResponse> {
    const customer = await this.customers.insert({
      id: newId(),
      application_id: this.applicationId,
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
    });
    await this.hooks.customerCreated(customer);
    return toCustomerResponse(customer);
  }

  /** Records which billing provider serves the customer and its reference there. */
  async setProviderReference(id: string, provider: string, reference: string): Promise<void> {
    await this.customers.update(this.applicationId, id, { provider, provider_reference: reference });
  }

  async retrieve(id: string): Promise<CustomerResponse> {
    return toCustomerResponse(await this.get(id));
  }

  /** For other modules: the customer entity of this application and mode, or E4004. */
  async get(id: string): Promise<Customer> {
    const customer = await this.customers.findById(this.applicationId, id);
    if (!customer) throw new AppError(Errors.E4004, `No customer with id "${id}".`);
    return customer;
  }

  /** Customers of an application by id (for the records that embed their customer). */
  async byIds(applicationId: string, ids: Array<string | null>): Promise<Map<string, Customer>> {
    const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
    if (wanted.length === 0) return new Map();
    return new Map((await this.customers.findMany(applicationId, wanted)).map((c) => [c.id, c]));
  }

  find(id: string): Promise<Customer | null> {
    return this.customers.findById(this.applicationId, id);
  }

  list(query: ListQuery): Promise<ListEnvelope<CustomerResponse>> {
    return runList(this.customers.query(this.applicationId), CUSTOMER_LIST, query, toCustomerResponse);
  }
}
