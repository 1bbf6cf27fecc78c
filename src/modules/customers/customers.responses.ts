import type { Customer } from './entities/customer.entity.js';

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
    test_clock: c.test_clock_id ?? null,
    created_at: c.created_at.toISOString(),
    updated_at: c.updated_at.toISOString(),
  };
}

export type CustomerResponse = ReturnType<typeof toCustomerResponse>;
