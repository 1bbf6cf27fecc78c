import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { Mode } from '../../../src/common/context/principal.js';
import { RequestContext } from '../../../src/common/context/request-context.js';
import { EventsService } from '../../../src/modules/events/index.js';
import type { Tenant, TestApp } from '../../support/harness.js';
import { MODES } from '../../../src/common/tenancy/modes.js';

/**
 * Public address literals (no DNS in CI): live needs https, and test mode is held to public targets
 * as a deployed service is (WEBHOOK_ALLOW_PRIVATE_TARGETS off). Nothing is delivered in these suites.
 */
export const MATRIX_WEBHOOK_URL: Record<Mode, string> = {
  live: 'https://93.184.215.14/hooks',
  test: 'http://93.184.215.14/hooks',
};

export type EventIds = Record<`${'event' | 'endpoint'}_${Mode}`, string>;

const made = new WeakMap<Tenant, Promise<EventIds>>();

/** A webhook endpoint (on a public address literal, so live accepts it) and an event in each mode. */
export function eventRecords(t: TestApp, tenant: Tenant): Promise<EventIds> {
  if (!made.has(tenant)) made.set(tenant, make(t, tenant));
  return made.get(tenant)!;
}

async function make(t: TestApp, tenant: Tenant): Promise<EventIds> {
  const out = {} as EventIds;
  for (const mode of MODES) {
    const endpoint = await t.http
      .post(tenant.path('/webhook_endpoints'))
      .set(tenant.as(mode))
      .send({ url: MATRIX_WEBHOOK_URL[mode], enabled_events: ['*'] });
    expect(endpoint.status).toBe(200);
    out[`endpoint_${mode}`] = endpoint.body.id;
    await t.app.get(RequestContext).runInMode(mode, async () => {
      const ds = t.app.get<DataSource>(getDataSourceToken(`wallet_${mode}`));
      await ds.transaction((manager) =>
        t.app.get(EventsService).record(manager, {
          applicationId: tenant.applicationId,
          type: 'account.updated',
          object: { id: tenant.applicationId, object: 'account' },
        }),
      );
    });
    const listed = await t.http.get(tenant.path('/events')).set(tenant.as(mode));
    out[`event_${mode}`] = listed.body.data[0].id;
  }
  return out;
}
