import type { Mode } from '../../../src/common/context/principal.js';
import type { Tenant, TestApp } from '../../support/harness.js';
import { issueSession } from '../auth.js';
import { connectedAccount, ownAccount } from '../payouts.js';

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
  for (const mode of ['test', 'live'] as const) {
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
