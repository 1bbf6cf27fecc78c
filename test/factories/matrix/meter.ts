import type { Mode } from '../../../src/common/context/principal.js';
import type { Tenant, TestApp } from '../../support/harness.js';

export type MeterIds = Record<`${'customer' | 'meter' | 'meter_event'}_${Mode}`, string>;

/** The event name of the matrix's meter; its payload key is `calls`. */
export const MATRIX_METER_EVENT = 'matrix_call';

const made = new WeakMap<Tenant, Promise<MeterIds>>();

/** A customer, a meter and a stored meter event for them, in each mode of `tenant`. */
export function meterRecords(t: TestApp, tenant: Tenant): Promise<MeterIds> {
  if (!made.has(tenant)) made.set(tenant, make(t, tenant));
  return made.get(tenant)!;
}

async function make(t: TestApp, tenant: Tenant): Promise<MeterIds> {
  const out = {} as MeterIds;
  for (const mode of ['test', 'live'] as Mode[]) {
    const post = async (path: string, body: object) => {
      const res = await t.http.post(tenant.path(path)).set(tenant.as(mode)).send(body);
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body as { id: string };
    };
    const customer = await post('/customers', { name: 'Matrix' });
    const meter = await post('/meters', {
      display_name: 'Matrix calls',
      event_name: MATRIX_METER_EVENT,
      value_settings: { event_payload_key: 'calls' },
    });
    const event = await post('/meter_events', {
      event_name: MATRIX_METER_EVENT,
      customer_id: customer.id,
      payload: { calls: '1' },
    });
    out[`customer_${mode}`] = customer.id;
    out[`meter_${mode}`] = meter.id;
    out[`meter_event_${mode}`] = event.id;
  }
  return out;
}
