import { createTenant, expectErrorObject, startApp, type Tenant, type TestApp } from '../../support/harness.js';
import {
  connectedAccount,
  expectMasked,
  KBANK,
  MOBILE,
  NATIONAL_ID,
  ownAccount,
  sandboxReceived,
  setSandboxFailing,
  storedRow,
} from '../../factories/payouts.js';

const SECRETS = [KBANK.accountNumber, MOBILE, '812345678', NATIONAL_ID];

/** A valid body for each type. */
const BODIES = {
  bookbank: {
    type: 'bookbank',
    account_holder_name: 'Somchai Jaidee',
    target: 'THB',
    extra_fields: { ...KBANK, branchCode: '0123', accountType: 'savings', legalType: 'individual' },
  },
  promptpay_phone: { type: 'promptpay_phone', account_holder_name: 'Somchai Jaidee', phone_number: '+66812345678' },
  promptpay_primary_identify_id: {
    type: 'promptpay_primary_identify_id',
    account_holder_name: 'Somchai Jaidee',
    primary_identify_id: NATIONAL_ID,
  },
} as const;
type TypeName = keyof typeof BODIES;
const TYPES = Object.keys(BODIES) as TypeName[];

const EXPECTED_COLUMNS: Record<TypeName, Record<string, unknown>> = {
  bookbank: {
    bank_code: '004',
    branch_code: '0123',
    account_type: 'savings',
    account_number: '******7890',
    phone_number: null,
    primary_identify_id: null,
    last4: '7890',
  },
  promptpay_phone: { bank_code: null, account_number: null, phone_number: '******5678', last4: '5678' },
  promptpay_primary_identify_id: {
    bank_code: null,
    phone_number: null,
    primary_identify_id: '******0708',
    last4: '0708',
  },
};

const ROUTING: Record<TypeName, string> = {
  bookbank: '0040123',
  promptpay_phone: 'PROMPTPAY-01',
  promptpay_primary_identify_id: 'PROMPTPAY-02',
};

const PROVIDER_TYPE: Record<TypeName, string> = {
  bookbank: 'th_bank_account',
  promptpay_phone: 'th_promptpay_mobile',
  promptpay_primary_identify_id: 'th_promptpay_national_id',
};

describe('bank accounts with the sandbox transfer provider enabled', () => {
  let t: TestApp;
  let tenant: Tenant;
  let own: string;
  let verified: string;

  const create = (body: object, headers = tenant.as('test')) =>
    t.http.post(tenant.path('/bank_accounts')).set(headers).send(body);
  const retrieve = (id: string) => t.http.get(tenant.path(`/bank_accounts/${id}`)).set(tenant.as('test'));

  beforeAll(async () => {
    t = await startApp({ rateLimit: false, liveDoubles: true });
    tenant = await createTenant(t);
    own = await ownAccount(t, tenant);
    verified = await connectedAccount(t, tenant, 'verified');
  });
  afterAll(async () => {
    await t.close();
  });

  describe.each(TYPES)('%s', (type) => {
    it('for the own account: stored, sent to the provider, enriched with recipient reference and routing number', async () => {
      const res = await create({ account: own, ...BODIES[type], metadata: { payee: '1' }, labels: ['primary'] });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        object: 'bank_account',
        resource: `bank_accounts/${res.body.id}`,
        created_at: expect.any(String),
        errors: [],
        next_action: [],
      });
      expectMasked(res.body, ...SECRETS);

      const got = await retrieve(res.body.id);
      expect(got.status).toBe(200);
      expect(got.body).toMatchObject({
        id: res.body.id,
        object: 'bank_account',
        livemode: false,
        account: own,
        account_kind: 'own',
        type,
        country: 'TH',
        currency: 'THB',
        account_holder_name: 'Somchai Jaidee',
        last4: EXPECTED_COLUMNS[type].last4,
        provider: 'sandbox',
        provider_type: PROVIDER_TYPE[type],
        provider_status: 'created',
        recipient_reference: expect.stringMatching(/^rcp_sbx_/),
        routing_number: ROUTING[type],
        metadata: { payee: '1' },
        labels: ['primary'],
      });
      expectMasked(got.body, ...SECRETS);
      const masked = `******${EXPECTED_COLUMNS[type].last4}`;
      const field =
        { bookbank: 'account_number', promptpay_phone: 'phone_number' }[type as string] ?? 'primary_identify_id';
      expect(got.body[field]).toBe(masked);

      const row = await storedRow(t, res.body.id);
      expect(row).toMatchObject(EXPECTED_COLUMNS[type]);
      expectMasked(row, ...SECRETS); // masked at rest too: only the provider gets the whole number
      const received = (await sandboxReceived(t, tenant)).filter((r) => r.bank_account_id === res.body.id);
      expectMasked(received, ...SECRETS);
      expect(received).toEqual([
        {
          reference: got.body.recipient_reference,
          bank_account_id: res.body.id,
          type: PROVIDER_TYPE[type],
          routing_number: ROUTING[type],
          received: expect.objectContaining({ type: PROVIDER_TYPE[type], currency: 'THB', name: 'Somchai Jaidee' }),
        },
      ]);
    });

    it('for a verified connected account: stored as a reference only, never sent to the provider', async () => {
      const res = await create({ account: verified, ...BODIES[type] });
      expect(res.status).toBe(200);
      expect(res.body.errors).toEqual([]);
      const got = await retrieve(res.body.id);
      expect(got.body).toMatchObject({
        account: verified,
        account_kind: 'connected',
        provider: null,
        provider_type: null,
        provider_status: 'not_applicable',
        recipient_reference: null,
        routing_number: null,
      });
      expectMasked(got.body, ...SECRETS);
      expect(await storedRow(t, res.body.id)).toMatchObject(EXPECTED_COLUMNS[type]);
      expect((await sandboxReceived(t, tenant)).map((r) => r.bank_account_id)).not.toContain(res.body.id);
    });

    it.each(['pending', 'rejected'] as const)('refuses a connected account whose KYB is %s with E1304', async (kyb) => {
      const account = await connectedAccount(t, tenant, kyb);
      const res = await create({ account, ...BODIES[type] });
      expect(res.status).toBe(403);
      expectErrorObject(res.body, 'E1304');
    });

    it('refuses customer_id with E6422', async () => {
      const res = await create({ account: own, ...BODIES[type], customer_id: '0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b' });
      expect(res.status).toBe(400);
      expectErrorObject(res.body, 'E6422');
    });

    it('names every missing required field with E2000', async () => {
      const required = Object.keys(BODIES[type]).filter((k) => k !== 'type');
      for (const field of required) {
        const body: Record<string, unknown> = { account: own, ...BODIES[type] };
        delete body[field];
        const res = await create(body);
        expect(res.status).toBe(400);
        expectErrorObject(res.body, 'E2000');
        expect(res.body.message).toContain(`"${field}"`);
        expect(res.body.message).toContain('required');
      }
    });
  });

  it('forwards unknown extra_fields keys (legalType) verbatim to the provider and never stores them', async () => {
    const res = await create({
      account: own,
      ...BODIES.bookbank,
      extra_fields: { ...KBANK, legalType: 'juristic', taxId: '0105551234567' },
    });
    expect(res.status).toBe(200);
    const [received] = (await sandboxReceived(t, tenant)).filter((r) => r.bank_account_id === res.body.id);
    expect(received.received).toMatchObject({
      legalType: 'juristic',
      taxId: '0105551234567',
      bank_code: '004',
      account_number: '****7890',
    });
    const row = JSON.stringify(await storedRow(t, res.body.id));
    expect(row).not.toContain('legalType');
    expect(row).not.toContain('juristic');
    expect(row).not.toContain('0105551234567');
    expect(JSON.stringify((await retrieve(res.body.id)).body)).not.toContain('juristic');
  });

  it('never sends legalType of a connected account anywhere', async () => {
    const res = await create({ account: verified, ...BODIES.bookbank });
    expect(res.status).toBe(200);
    expect((await sandboxReceived(t, tenant)).map((r) => r.bank_account_id)).not.toContain(res.body.id);
    expect(JSON.stringify(await storedRow(t, res.body.id))).not.toContain('individual');
  });

  it('refuses customer_id with E6422 before any other check, and the catalog gives E6422 its HTTP status', async () => {
    const res = await create({ customer_id: 'x' });
    expect(res.status).toBe(400);
    expectErrorObject(res.body, 'E6422');
    const catalog = await t.http.get(tenant.path('/errors/catalog')).set(tenant.as('test'));
    expect(catalog.body.entries).toContainEqual(
      expect.objectContaining({ code: 6422, key: 'customer_id_not_allowed', http_status: 400 }),
    );
  });

  it('requires account and type, and a known type', async () => {
    for (const [body, field] of [
      [{ type: 'bookbank' }, 'account'],
      [{ account: own }, 'type'],
      [{ account: own, type: 'swift' }, 'type'],
      [{ account: own, ...BODIES.bookbank, phone_number: MOBILE }, 'phone_number'],
      [{ account: own, ...BODIES.promptpay_phone, extra_fields: {} }, 'extra_fields'],
      [{ account: own, ...BODIES.promptpay_phone, routing: '1' }, 'routing'],
    ] as const) {
      const res = await create(body);
      expect(res.status).toBe(400);
      expectErrorObject(res.body, 'E2000');
      expect(res.body.message).toContain(`"${field}"`);
    }
  });

  it('validates like a Thai bank: bank codes, account number lengths, mobile numbers, national IDs, currency', async () => {
    const bookbank = (extra: Record<string, unknown>, more: object = {}) =>
      create({ account: own, ...BODIES.bookbank, extra_fields: extra, ...more });
    const cases: Array<[Promise<{ status: number; body: { code: string; message: string } }>, string, string?]> = [
      [bookbank({ bankCode: '999', accountNumber: '1234567890' }), 'E6103', 'extra_fields.bankCode'],
      [bookbank({ bankCode: 'KBANK', accountNumber: '1234567890' }), 'E6103'],
      [bookbank({ bankCode: '004', accountNumber: '123456789' }), 'E6104', '10 digits'],
      [bookbank({ bankCode: '030', accountNumber: '1234567890' }), 'E6104', '12 digits'],
      [bookbank({ bankCode: '004', accountNumber: '12345678ab' }), 'E6104'],
      [bookbank({ accountNumber: '1234567890' }), 'E6108', 'extra_fields.bankCode'],
      [bookbank({ bankCode: '004' }), 'E6108', 'extra_fields.accountNumber'],
      [bookbank({ bankCode: 4, accountNumber: '1234567890' }), 'E6108'],
      [bookbank({ ...KBANK, branchCode: '12' }), 'E6108', 'branchCode'],
      [bookbank({ ...KBANK, accountType: 'fixed' }), 'E6108', 'accountType'],
      [bookbank({ ...KBANK, 'bad key': 1 }), 'E6108'],
      [bookbank(KBANK, { target: 'USD' }), 'E6107', 'THB'],
      [create({ account: own, ...BODIES.promptpay_phone, phone_number: '021234567' }), 'E6105'],
      [create({ account: own, ...BODIES.promptpay_phone, phone_number: '+6621234567' }), 'E6105'],
      [create({ account: own, ...BODIES.promptpay_phone, phone_number: '081234567' }), 'E6105'],
      [create({ account: own, ...BODIES.promptpay_phone, target: 'USD' }), 'E6107'],
      [
        create({ account: own, ...BODIES.promptpay_primary_identify_id, primary_identify_id: '1101700230705' }),
        'E6106',
      ],
      [create({ account: own, ...BODIES.promptpay_primary_identify_id, primary_identify_id: '110170023070' }), 'E6106'],
      [create({ account: own, ...BODIES.bookbank, account_holder_name: '   ' }), 'E2000', 'account_holder_name'],
    ];
    for (const [pending, code, text] of cases) {
      const res = await pending;
      expect([res.status, res.body.code]).toEqual([400, code]);
      expectErrorObject(res.body, code);
      if (text) expect(res.body.message).toContain(text);
      expectMasked(res.body, '1234567890', '1101700230705');
    }
  });

  it('accepts numbers written with spaces and dashes and stores them normalised', async () => {
    const res = await create({
      account: own,
      ...BODIES.bookbank,
      extra_fields: { bankCode: '030', accountNumber: '0201-2345-6789' },
    });
    expect(res.status).toBe(200);
    expect(await storedRow(t, res.body.id)).toMatchObject({ bank_code: '030', account_number: '******6789' });
    const phone = await create({ account: own, ...BODIES.promptpay_phone, phone_number: '+66 91 234 5678' });
    expect(await storedRow(t, phone.body.id)).toMatchObject({ phone_number: '******5678', last4: '5678' });
    // The provider got the normalised numbers (it keeps only their last 4 digits and length).
    const received = await sandboxReceived(t, tenant);
    expect(received.find((r) => r.bank_account_id === res.body.id)!.received).toMatchObject({
      account_number: '****6789',
      account_number_length: 12,
    });
    expect(received.find((r) => r.bank_account_id === phone.body.id)!.received).toMatchObject({
      phone_number: '****5678',
      phone_number_length: 10,
    });
  });

  it('refuses an unknown account or another application’s account with E6101', async () => {
    const other = await createTenant(t);
    const othersOwn = await ownAccount(t, other);
    for (const account of ['0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b', 'not-an-id', othersOwn]) {
      const res = await create({ account, ...BODIES.bookbank });
      expect(res.status).toBe(400);
      expectErrorObject(res.body, 'E6101');
    }
  });

  it('takes provider only when it names the provider serving the country (E6109)', async () => {
    expect((await create({ account: own, ...BODIES.promptpay_phone, provider: 'sandbox' })).status).toBe(200);
    const res = await create({ account: own, ...BODIES.promptpay_phone, provider: 'acme' });
    expect(res.status).toBe(400);
    expectErrorObject(res.body, 'E6109');
  });

  it('keeps the local record and reports E6120 in errors when the provider refuses the recipient', async () => {
    await setSandboxFailing(t, tenant, true);
    try {
      const res = await create({ account: own, ...BODIES.bookbank });
      expect(res.status).toBe(200);
      expect(res.body.errors).toEqual([{ code: 'E6120', message: expect.any(String) }]);
      const got = await retrieve(res.body.id);
      expect(got.body).toMatchObject({ provider: 'sandbox', provider_status: 'failed', recipient_reference: null });
    } finally {
      await setSandboxFailing(t, tenant, false);
    }
  });

  it('refuses countries whose bank rules it does not know (E6102)', async () => {
    const multi = await createTenant(t, { countries: ['TH', 'SG'] });
    const ownSg = await ownAccount(t, multi);
    const res = await t.http
      .post(multi.path('/bank_accounts'))
      .set(multi.as('test', { 'X-Country': 'SG' }))
      .send({ account: ownSg, ...BODIES.promptpay_phone });
    expect(res.status).toBe(400);
    expectErrorObject(res.body, 'E6102');
  });

  it('lists with the list engine, masked, per mode and country', async () => {
    const fresh = await createTenant(t, { countries: ['TH', 'SG'] });
    const freshOwn = await ownAccount(t, fresh);
    const ids: string[] = [];
    for (const type of TYPES) {
      const res = await t.http
        .post(fresh.path('/bank_accounts'))
        .set(fresh.as('test'))
        .send({ account: freshOwn, ...BODIES[type] });
      ids.push(res.body.id);
    }
    const list = await t.http.get(fresh.path('/bank_accounts')).set(fresh.as('test'));
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ object: 'list', page: 1, limit: 10, total_items: 3, total_pages: 1 });
    expect(list.body.data.map((b: { id: string }) => b.id)).toEqual([...ids].reverse());
    expectMasked(list.body, ...SECRETS);

    const byType = await t.http
      .get(fresh.path('/bank_accounts'))
      .query({ 'filter[type]': 'promptpay_phone', 'filter[account]': freshOwn })
      .set(fresh.as('test'));
    expect(byType.body.data.map((b: { id: string }) => b.id)).toEqual([ids[1]]);
    const search = await t.http.get(fresh.path('/bank_accounts')).query({ q: '0708' }).set(fresh.as('test'));
    expect(search.body.data.map((b: { id: string }) => b.id)).toEqual([ids[2]]);
    const cursor = await t.http
      .get(fresh.path('/bank_accounts'))
      .query({ 'use-cursor': 'true', limit: 2 })
      .set(fresh.as('test'));
    expect(cursor.body).toMatchObject({ has_more: true, limit: 2 });

    const live = await t.http.get(fresh.path('/bank_accounts')).set(fresh.as('live'));
    expect(live.body.total_items).toBe(0);
    const sg = await t.http.get(fresh.path('/bank_accounts')).set(fresh.as('test', { 'X-Country': 'SG' }));
    expect(sg.body.total_items).toBe(0);
    const missing = await t.http.get(fresh.path(`/bank_accounts/${ids[0]}`)).set(fresh.as('live'));
    expect(missing.status).toBe(404);
    expectErrorObject(missing.body, 'E4004');
    const badFilter = await t.http
      .get(fresh.path('/bank_accounts'))
      .query({ 'filter[account_number]': '1234567890' })
      .set(fresh.as('test'));
    expectErrorObject(badFilter.body, 'E2004');
  });

  it('creates in live mode for the live own account (livemode true)', async () => {
    const liveOwn = await ownAccount(t, tenant, 'live');
    const res = await create({ account: liveOwn, ...BODIES.promptpay_phone }, tenant.as('live'));
    expect(res.status).toBe(200);
    const got = await t.http.get(tenant.path(`/bank_accounts/${res.body.id}`)).set(tenant.as('live'));
    expect(got.body).toMatchObject({ livemode: true, provider_status: 'created' });
    const testOwnInLive = await create({ account: own, ...BODIES.promptpay_phone }, tenant.as('live'));
    expectErrorObject(testOwnInLive.body, 'E6101');
  });
});

describe('bank accounts with the transfer provider disabled for the country', () => {
  let t: TestApp;
  let tenant: Tenant;
  let own: string;
  beforeAll(async () => {
    t = await startApp({ rateLimit: false, env: { TRANSFER_PROVIDERS: 'TH=none,*=sandbox' } });
    tenant = await createTenant(t);
    own = await ownAccount(t, tenant);
  });
  afterAll(async () => {
    await t.close();
  });

  it.each(TYPES)(
    '%s for the own account: the local record keeps the columns derived from the submitted fields',
    async (type) => {
      const res = await t.http
        .post(tenant.path('/bank_accounts'))
        .set(tenant.as('test'))
        .send({ account: own, ...BODIES[type] });
      expect(res.status).toBe(200);
      expect(res.body.errors).toEqual([]);
      const got = await t.http.get(tenant.path(`/bank_accounts/${res.body.id}`)).set(tenant.as('test'));
      expect(got.body).toMatchObject({
        account_kind: 'own',
        type,
        provider: null,
        provider_type: null,
        provider_status: 'disabled',
        recipient_reference: null,
        routing_number: null,
        last4: EXPECTED_COLUMNS[type].last4,
      });
      expectMasked(got.body, ...SECRETS);
      const row = await storedRow(t, res.body.id);
      expect(row).toMatchObject(EXPECTED_COLUMNS[type]);
      expect(JSON.stringify(row)).not.toContain('legalType');
      expect(await sandboxReceived(t, tenant)).toEqual([]);
    },
  );

  it.each(TYPES)('%s for a verified connected account: reference only', async (type) => {
    const verified = await connectedAccount(t, tenant, 'verified');
    const res = await t.http
      .post(tenant.path('/bank_accounts'))
      .set(tenant.as('test'))
      .send({ account: verified, ...BODIES[type] });
    expect(res.status).toBe(200);
    const got = await t.http.get(tenant.path(`/bank_accounts/${res.body.id}`)).set(tenant.as('test'));
    expect(got.body).toMatchObject({ account_kind: 'connected', provider: null, provider_status: 'not_applicable' });
    expect(await storedRow(t, res.body.id)).toMatchObject(EXPECTED_COLUMNS[type]);
    expect(await sandboxReceived(t, tenant)).toEqual([]);
  });

  it('refuses provider when none serves the country (E6109), and still enforces KYB (E1304) and E6422', async () => {
    const res = await t.http
      .post(tenant.path('/bank_accounts'))
      .set(tenant.as('test'))
      .send({ account: own, ...BODIES.bookbank, provider: 'sandbox' });
    expectErrorObject(res.body, 'E6109');
    const pending = await connectedAccount(t, tenant, 'pending');
    const kyb = await t.http
      .post(tenant.path('/bank_accounts'))
      .set(tenant.as('test'))
      .send({ account: pending, ...BODIES.bookbank });
    expectErrorObject(kyb.body, 'E1304');
    const customer = await t.http
      .post(tenant.path('/bank_accounts'))
      .set(tenant.as('test'))
      .send({ account: own, ...BODIES.bookbank, customer_id: '0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b' });
    expectErrorObject(customer.body, 'E6422');
  });
});
