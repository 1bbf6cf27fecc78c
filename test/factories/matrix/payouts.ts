import type { Mode } from '../../../src/common/context/principal.js';
import { RequestContext } from '../../../src/common/context/request-context.js';
import { BalancesService, PostingService } from '../../../src/modules/ledger/index.js';
import type { Tenant, TestApp } from '../../support/harness.js';
import { issueSession } from '../auth.js';
import { connectedAccount, ownAccount } from '../payouts.js';
import { MODES } from '../../../src/common/tenancy/modes.js';

export type PayoutIds = Record<`${'account' | 'bank_account' | 'intent'}_${Mode}`, string>;

const made = new WeakMap<Tenant, Promise<PayoutIds>>();

const INTENT = { return_url: 'https://partner.example/done', refresh_url: 'https://partner.example/refresh' };

/** The own account, a bank account for it and a bank account intent, in each mode of `tenant`. */
export function payoutRecords(t: TestApp, tenant: Tenant): Promise<PayoutIds> {
  if (!made.has(tenant)) made.set(tenant, make(t, tenant));
  return made.get(tenant)!;
}

async function make(t: TestApp, tenant: Tenant): Promise<PayoutIds> {
  const ids = {} as PayoutIds;
  for (const mode of MODES) {
    ids[`account_${mode}`] = await ownAccount(t, tenant, mode);
    const bank = await t.http
      .post(tenant.path('/bank_accounts'))
      .set(tenant.as(mode))
      .send({
        account: ids[`account_${mode}`],
        type: 'promptpay_phone',
        account_holder_name: 'Matrix',
        phone_number: '0812345678',
      });
    ids[`bank_account_${mode}`] = bank.body.id;
    const intent = await t.http
      .post(tenant.path('/bank_account_intents'))
      .set(tenant.as(mode))
      .send({ account: ids[`account_${mode}`], ...INTENT });
    ids[`intent_${mode}`] = intent.body.id;
  }
  return ids;
}

/**
 * Sessions for POST /bank_accounts: the right one is an intent's for the own test account; the
 * other target's intent is for a connected account; the other app's is for its own account.
 */
export async function bankAccountIntentSessions(t: TestApp, tenant: Tenant, other: Tenant) {
  const ids = await payoutRecords(t, tenant);
  const intent = async (on: Tenant, account: string) =>
    (
      await t.http
        .post(on.path('/bank_account_intents'))
        .set(on.as('test'))
        .send({ account, ...INTENT })
    ).body as {
      id: string;
      session: string;
    };
  const right = await intent(tenant, ids.account_test);
  const otherTarget = await intent(tenant, await connectedAccount(t, tenant, 'verified'));
  const otherApp = await intent(other, await ownAccount(t, other));
  const expired = await issueSession(t, tenant, {
    purpose: 'bank_account_intent',
    targetId: right.id,
    ttlSeconds: 60,
  });
  return {
    ids,
    sessions: {
      right: right.session,
      otherTarget: otherTarget.session,
      otherApp: otherApp.session,
      expired: expired.token,
    },
  };
}

export type PayoutLifecycleIds = PayoutIds & Record<`${'payout' | 'paid_payout'}_${Mode}`, string>;

const funded = new WeakMap<Tenant, Promise<PayoutLifecycleIds>>();

/**
 * For the payout rows: the own account's merchant balance funded through the posting service (so
 * every allowed credential's POST /payouts succeeds), a payout in transit and a paid one, per mode.
 */
export function payoutLifecycleRecords(t: TestApp, tenant: Tenant): Promise<PayoutLifecycleIds> {
  if (!funded.has(tenant)) funded.set(tenant, fund(t, tenant));
  return funded.get(tenant)!;
}

async function fund(t: TestApp, tenant: Tenant): Promise<PayoutLifecycleIds> {
  const ids = { ...(await payoutRecords(t, tenant)) } as PayoutLifecycleIds;
  const application_id = tenant.applicationId;
  for (const mode of MODES) {
    await t.app.get(RequestContext).runInMode(mode, async () => {
      const balances = t.app.get(BalancesService);
      const merchant = await balances.getOrCreate({ application_id, account: 'merchant', currency: 'THB' });
      const clearing = await balances.getOrCreate({ application_id, account: 'provider_clearing', currency: 'THB' });
      const entry = { currency: 'THB', state: 'available' as const, type: 'charge', source: 'payment' };
      await t.app.get(PostingService).post({
        application_id,
        event_type: 'matrix',
        entries: [
          { ...entry, balance_id: merchant.id, amount: 1_000_000 },
          { ...entry, balance_id: clearing.id, amount: -1_000_000 },
        ],
      });
    });
    const payout = async () => {
      const res = await t.http
        .post(tenant.path('/payouts'))
        .set(tenant.as(mode))
        .send({ amount: 100, currency: 'THB', destination: ids[`bank_account_${mode}`] });
      if (res.status !== 200) throw new Error(`payout: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body as { id: string; status: string };
    };
    ids[`payout_${mode}`] = (await payout()).id;
    const paid = await payout();
    if (mode === 'test') await t.http.post(tenant.path(`/test_helpers/payouts/${paid.id}/paid`)).set(tenant.as(mode));
    ids[`paid_payout_${mode}`] = paid.id;
  }
  return ids;
}
