import type { Mode } from '../../src/common/context/principal.js';
import { RequestContext } from '../../src/common/context/request-context.js';
import { ModeDb } from '../../src/common/database/mode-db.js';
import { SandboxTransferProvider } from '../../src/modules/payouts/index.js';
import type { Tenant, TestApp } from '../support/harness.js';

export const KBANK = { bankCode: '004', accountNumber: '1234567890' };
export const MOBILE = '0812345678';
export const NATIONAL_ID = '1101700230708';

/** The application's own account id in a mode. */
export async function ownAccount(t: TestApp, tenant: Tenant, mode: Mode = 'test'): Promise<string> {
  const res = await t.http.get(tenant.path('/accounts')).query({ 'filter[type]': 'own' }).set(tenant.as(mode));
  if (res.status !== 200) throw new Error(`own account: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data[0].id;
}

/** A connected account, verified or rejected through the test helpers (or left pending). */
export async function connectedAccount(
  t: TestApp,
  tenant: Tenant,
  kyb: 'pending' | 'verified' | 'rejected',
  name = 'Connected Co., Ltd.',
): Promise<string> {
  const created = await t.http.post(tenant.path('/accounts')).set(tenant.as('test')).send({ name });
  if (kyb !== 'pending') {
    const action = kyb === 'verified' ? 'verify' : 'reject';
    await t.http
      .post(tenant.path(`/test_helpers/accounts/${created.body.id}/${action}`))
      .set(tenant.as('test'))
      .send({});
  }
  return created.body.id;
}

/** What the sandbox transfer provider received for the tenant (test mode). */
export function sandboxReceived(t: TestApp, tenant: Tenant) {
  return t.app
    .get(RequestContext)
    .runInMode('test', () => t.app.get(SandboxTransferProvider).received(tenant.applicationId));
}

export function setSandboxFailing(t: TestApp, tenant: Tenant, failing: boolean) {
  return t.app
    .get(RequestContext)
    .runInMode('test', () => t.app.get(SandboxTransferProvider).setFailing(tenant.applicationId, failing));
}

/** The stored row as JSON text, straight from the database. */
export async function storedRow(t: TestApp, id: string): Promise<Record<string, unknown>> {
  const rows = await t.app
    .get(RequestContext)
    .runInMode('test', () =>
      t.app
        .get(ModeDb)
        .manager.query(`SELECT row_to_json(b) AS row FROM wallet_test.bank_accounts b WHERE id = $1`, [id]),
    );
  return rows[0]?.row;
}

/** No response may carry a whole account number, phone number or national ID. */
export function expectMasked(body: unknown, ...secrets: string[]): void {
  const text = JSON.stringify(body);
  for (const secret of secrets) expect(text).not.toContain(secret);
}
