import type { Mode } from '../../src/common/context/principal.js';
import { SubscriptionsJob } from '../../src/modules/billing/subscriptions/index.js';
import type { Tenant, TestApp } from '../support/harness.js';

export interface PriceOptions {
  unit_amount?: number;
  currency?: string;
  interval?: 'day' | 'week' | 'month' | 'year';
  interval_count?: number;
  usage_type?: 'licensed' | 'metered';
  one_time?: boolean;
  mode?: Mode;
  /** Fields sent as they are (tiers, billing_scheme); `unit_amount: null` leaves it out. */
  extra?: Record<string, unknown>;
}

let meters = 0;

/** A product and one price of it (monthly, licensed, 300.00 THB unless told). */
export async function createPrice(t: TestApp, tenant: Tenant, options: PriceOptions = {}): Promise<{ id: string }> {
  const mode = options.mode ?? 'test';
  const product = await t.http.post(tenant.path('/products')).set(tenant.as(mode)).send({ name: 'Plan' });
  expect(product.status).toBe(200);
  let meterId: string | undefined;
  if (options.usage_type === 'metered') {
    meters += 1;
    const meter = await t.http
      .post(tenant.path('/meters'))
      .set(tenant.as(mode))
      .send({ display_name: 'Calls', event_name: `call_${meters}`, value_settings: { event_payload_key: 'calls' } });
    expect(meter.status).toBe(200);
    meterId = meter.body.id;
  }
  const price = await t.http
    .post(tenant.path('/prices'))
    .set(tenant.as(mode))
    .send({
      product_id: product.body.id,
      currency: options.currency ?? 'THB',
      ...(options.extra && 'tiers' in options.extra ? {} : { unit_amount: options.unit_amount ?? 30_000 }),
      ...options.extra,
      ...(options.one_time
        ? {}
        : {
            recurring: {
              interval: options.interval ?? 'month',
              interval_count: options.interval_count ?? 1,
              usage_type: options.usage_type ?? 'licensed',
              ...(meterId ? { meter_id: meterId } : {}),
            },
          }),
    });
  expect(price.status).toBe(200);
  return price.body;
}

export async function createCustomer(
  t: TestApp,
  tenant: Tenant,
  body: Record<string, unknown> = {},
  mode: Mode = 'test',
): Promise<{ id: string }> {
  const res = await t.http
    .post(tenant.path('/customers'))
    .set(tenant.as(mode))
    .send({ name: 'Subscriber', ...body });
  expect(res.status).toBe(200);
  return res.body;
}

export async function createClock(t: TestApp, tenant: Tenant, frozen_time: string): Promise<{ id: string }> {
  const res = await t.http.post(tenant.path('/test_helpers/test_clocks')).set(tenant.as('test')).send({ frozen_time });
  expect(res.status).toBe(200);
  return res.body;
}

/** Advances the clock and runs the subscriptions job for the tenant until the clock is ready. */
export async function advanceClock(t: TestApp, tenant: Tenant, clockId: string, frozen_time: string) {
  const res = await t.http
    .post(tenant.path(`/test_helpers/test_clocks/${clockId}/advance`))
    .set(tenant.as('test'))
    .send({ frozen_time });
  expect(res.status).toBe(200);
  expect(res.body.status).toBe('advancing');
  await runSubscriptionsJob(t, tenant);
  const read = await t.http.get(tenant.path(`/test_helpers/test_clocks/${clockId}`)).set(tenant.as('test'));
  expect(read.body).toMatchObject({ status: 'ready', frozen_time: new Date(frozen_time).toISOString() });
  return read.body;
}

export function runSubscriptionsJob(t: TestApp, tenant: Tenant) {
  return t.app.get(SubscriptionsJob).run({ applicationIds: [tenant.applicationId] });
}

export async function eventsOf(t: TestApp, tenant: Tenant, type: string) {
  const res = await t.http
    .get(tenant.path('/events'))
    .query({ 'filter[type]': type, limit: 100 })
    .set(tenant.as('test'));
  expect(res.status).toBe(200);
  return res.body.data as Array<{
    id: string;
    type: string;
    created_at: string;
    data: { object: Record<string, unknown>; previous_attributes?: Record<string, unknown> };
  }>;
}
