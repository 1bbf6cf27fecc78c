import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { Mode } from '../../../src/common/context/principal.js';
import { RequestContext } from '../../../src/common/context/request-context.js';
import { newId } from '../../../src/common/ids.js';
import { ChargesService } from '../../../src/modules/checkout/index.js';
import { BalancesService, PostingService } from '../../../src/modules/ledger/index.js';
import type { Tenant, TestApp } from '../../support/harness.js';
import { MODES } from '../../../src/common/tenancy/modes.js';

export type LedgerIds = Record<`${'balance' | 'entry' | 'dispute'}_${Mode}`, string>;

const made = new WeakMap<Tenant, Promise<LedgerIds>>();

/** A balance, a balance transaction and a dispute in each mode of `tenant`, for the credential matrix. */
export function ledgerRecords(t: TestApp, tenant: Tenant): Promise<LedgerIds> {
  if (!made.has(tenant)) made.set(tenant, make(t, tenant));
  return made.get(tenant)!;
}

async function make(t: TestApp, tenant: Tenant): Promise<LedgerIds> {
  const ctx = t.app.get(RequestContext);
  const out = {} as LedgerIds;
  const application_id = tenant.applicationId;
  for (const mode of MODES) {
    await ctx.runInMode(mode, async () => {
      const balances = t.app.get(BalancesService);
      const a = await balances.getOrCreate({ application_id, account: 'customer', currency: 'THB' });
      const b = await balances.getOrCreate({ application_id, account: 'application', currency: 'THB' });
      const entry = { currency: 'THB', state: 'available' as const, type: 'charge', source: 'payment' };
      const posted = await t.app.get(PostingService).post({
        application_id,
        event_type: 'matrix',
        entries: [
          { ...entry, balance_id: a.id, amount: 100 },
          { ...entry, balance_id: b.id, amount: -100 },
        ],
      });
      const charge = await t.app
        .get(ChargesService)
        .create({ application_id, status: 'succeeded', currency: 'THB', amount: 100, paid: true, country: 'TH' });
      const dispute = newId();
      const ds = t.app.get<DataSource>(getDataSourceToken(`wallet_${mode}`));
      await ds.query(
        `INSERT INTO wallet_${mode}.disputes (id, application_id, country, number, charge_id, currency, status, reason, amount, opened_at)
         VALUES ($1, $2, 'TH', 'DP-MATRIX', $3, 'THB', 'needs_response', 'general', 100, now())`,
        [dispute, application_id, charge.id],
      );
      out[`balance_${mode}`] = a.id;
      out[`entry_${mode}`] = posted.entries[0].id;
      out[`dispute_${mode}`] = dispute;
    });
  }
  return out;
}
