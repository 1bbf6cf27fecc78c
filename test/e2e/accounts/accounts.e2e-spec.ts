import { RequestContext } from '../../../src/common/context/request-context.js';
import { ModeDb } from '../../../src/common/database/mode-db.js';
import { AccountsService } from '../../../src/modules/accounts/index.js';
import { createTenant, expectErrorObject, startApp, type Tenant, type TestApp } from '../../support/harness.js';
import { MODES } from '../../../src/common/tenancy/modes.js';

describe('accounts: own and connected', () => {
  let t: TestApp;
  let tenant: Tenant;

  const create = (body: object, mode: 'test' | 'live' = 'test') =>
    t.http.post(tenant.path('/accounts')).set(tenant.as(mode)).send(body);

  beforeAll(async () => {
    t = await startApp({ rateLimit: false });
    tenant = await createTenant(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it('gives every new application its own verified account in each mode', async () => {
    for (const mode of MODES) {
      const list = await t.http.get(tenant.path('/accounts')).query({ 'filter[type]': 'own' }).set(tenant.as(mode));
      expect(list.status).toBe(200);
      expect(list.body.total_items).toBe(1);
      expect(list.body.data[0]).toMatchObject({
        object: 'account',
        type: 'own',
        kyb_status: 'verified',
        livemode: mode === 'live',
        name: tenant.slug,
      });
    }
  });

  it('creates a connected account with KYB pending, in the country of the request by default', async () => {
    const res = await create({
      name: 'Baan Somchai',
      business_name: 'Baan Somchai Co., Ltd.',
      email: 'finance@baansomchai.co.th',
      metadata: { crm: '7' },
      labels: ['marketplace'],
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      object: 'account',
      livemode: false,
      type: 'connected',
      name: 'Baan Somchai',
      business_name: 'Baan Somchai Co., Ltd.',
      email: 'finance@baansomchai.co.th',
      country: 'TH',
      default_currency: null,
      kyb_status: 'pending',
      kyb_rejection_reason: null,
      kyb_decided_at: null,
      metadata: { crm: '7' },
      labels: ['marketplace'],
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const got = await t.http.get(tenant.path(`/accounts/${res.body.id}`)).set(tenant.as('test'));
    expect(got.body).toEqual(res.body);
    const live = await t.http.get(tenant.path(`/accounts/${res.body.id}`)).set(tenant.as('live'));
    expect(live.status).toBe(404);
    expectErrorObject(live.body, 'E4004');
  });

  it('refuses invalid fields with E2000 naming the parameter, and unknown ones', async () => {
    const bad = await create({ email: 'not-an-email' });
    expect(bad.status).toBe(400);
    expectErrorObject(bad.body, 'E2000');
    expect(bad.body.message).toContain('email');
    const country = await create({ country: 'tha' });
    expectErrorObject(country.body, 'E2000');
    const unknown = await create({ kyb_status: 'verified' });
    expect(unknown.status).toBe(400);
    expectErrorObject(unknown.body, 'E2000');
  });

  it('verifies and rejects KYB through the test helpers, in test mode only', async () => {
    const { body: account } = await create({ name: 'To review' });
    const rejected = await t.http
      .post(tenant.path(`/test_helpers/accounts/${account.id}/reject`))
      .set(tenant.as('test'))
      .send({ reason: 'documents_unreadable' });
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({ kyb_status: 'rejected', kyb_rejection_reason: 'documents_unreadable' });
    const verified = await t.http
      .post(tenant.path(`/test_helpers/accounts/${account.id}/verify`))
      .set(tenant.as('test'))
      .send({});
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({ kyb_status: 'verified', kyb_rejection_reason: null });
    expect(verified.body.kyb_decided_at).toEqual(expect.any(String));

    const { body: liveAccount } = await create({ name: 'Live' }, 'live');
    const live = await t.http
      .post(tenant.path(`/test_helpers/accounts/${liveAccount.id}/verify`))
      .set(tenant.as('live'))
      .send({});
    expect(live.status).toBe(404);
    expectErrorObject(live.body, 'E4040');

    const missing = await t.http
      .post(tenant.path('/test_helpers/accounts/0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b/verify'))
      .set(tenant.as('test'))
      .send({});
    expectErrorObject(missing.body, 'E4004');
  });

  it("refuses to reject the application's own account (E6001)", async () => {
    const own = await t.http.get(tenant.path('/accounts')).query({ 'filter[type]': 'own' }).set(tenant.as('test'));
    const res = await t.http
      .post(tenant.path(`/test_helpers/accounts/${own.body.data[0].id}/reject`))
      .set(tenant.as('test'))
      .send({});
    expect(res.status).toBe(409);
    expectErrorObject(res.body, 'E6001');
  });

  it('lists with the list engine: filters, search, pagination, other applications never visible', async () => {
    const other = await createTenant(t);
    await t.http.post(other.path('/accounts')).set(other.as('test')).send({ name: 'Other app account' });
    for (const name of ['Alpha Trading', 'Beta Foods', 'Gamma Tours']) await create({ name });
    const search = await t.http.get(tenant.path('/accounts')).query({ q: 'beta' }).set(tenant.as('test'));
    expect(search.body.data.map((a: { name: string }) => a.name)).toEqual(['Beta Foods']);
    const pending = await t.http
      .get(tenant.path('/accounts'))
      .query({ 'filter[kyb_status]': 'pending', limit: 2, 'use-cursor': 'true' })
      .set(tenant.as('test'));
    expect(pending.status).toBe(200);
    expect(pending.body).toMatchObject({ object: 'list', limit: 2, has_more: true });
    const all = await t.http.get(tenant.path('/accounts')).query({ limit: 100 }).set(tenant.as('test'));
    expect(all.body.data.map((a: { name: string }) => a.name)).not.toContain('Other app account');
    const badFilter = await t.http
      .get(tenant.path('/accounts'))
      .query({ 'filter[kyb_status]': 'maybe' })
      .set(tenant.as('test'));
    expect(badFilter.status).toBe(400);
    expectErrorObject(badFilter.body, 'E2004');
  });

  it('ownAccount() makes the own account of an application that has none (created before accounts existed)', async () => {
    const old = await createTenant(t);
    const context = t.app.get(RequestContext);
    const application = { id: old.applicationId, slug: old.slug, name: old.slug, countries: ['TH'] };
    const [first, second] = await context.runInMode(
      'test',
      async () => {
        await t.app
          .get(ModeDb)
          .manager.query(`DELETE FROM wallet_test.accounts WHERE application_id = $1`, [old.applicationId]);
        const service = t.app.get(AccountsService);
        return Promise.all([service.ownAccount(application), service.ownAccount(application)]);
      },
      { application },
    );
    expect(first).toMatchObject({ type: 'own', kyb_status: 'verified', livemode: false });
    expect(second.id).toBe(first.id);
    const found = await context.runInMode('test', () => t.app.get(AccountsService).findById(application.id, first.id), {
      application,
    });
    expect(found).toEqual(first);
  });
});
