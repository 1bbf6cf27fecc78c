import { createTenant, expectErrorObject, startApp, type Tenant, type TestApp } from '../../support/harness.js';

describe('billing catalog: tax rates', () => {
  let t: TestApp;
  let tenant: Tenant;
  let other: Tenant;

  const post = (path: string, body: object, mode: 'test' | 'live' = 'test', who = tenant) =>
    t.http.post(who.path(path)).set(who.as(mode)).send(body);
  const get = (path: string, mode: 'test' | 'live' = 'test', who = tenant) =>
    t.http.get(who.path(path)).set(who.as(mode));
  const vat = {
    display_name: 'VAT',
    percentage: 7,
    inclusive: false,
    country: 'TH',
    jurisdiction: 'TH',
    description: 'Thai VAT',
  };

  beforeAll(async () => {
    t = await startApp({ rateLimit: false });
    tenant = await createTenant(t);
    other = await createTenant(t);
  });
  afterAll(() => t.close());

  it('creates Thai VAT 7%, reads and lists it, and records tax_rate.created', async () => {
    const created = await post('/tax_rates', { ...vat, metadata: { k: 'v' } });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      object: 'tax_rate',
      livemode: false,
      display_name: 'VAT',
      percentage: 7,
      inclusive: false,
      country: 'TH',
      jurisdiction: 'TH',
      description: 'Thai VAT',
      active: true,
      metadata: { k: 'v' },
    });
    expect((await get(`/tax_rates/${created.body.id}`)).body).toEqual(created.body);
    const list = await get('/tax_rates?filter[country]=TH&filter[inclusive]=false');
    expect(list.body.data.map((r: { id: string }) => r.id)).toContain(created.body.id);
    const events = await get('/events?filter[type]=tax_rate.created&limit=100');
    expect(events.body.data.map((e: { data: { object: { id: string } } }) => e.data.object.id)).toContain(
      created.body.id,
    );
  });

  it('stores a percentage with 4 decimals exactly', async () => {
    const created = await post('/tax_rates', { ...vat, percentage: 8.8751, inclusive: true });
    expect((await get(`/tax_rates/${created.body.id}`)).body).toMatchObject({ percentage: 8.8751, inclusive: true });
  });

  it.each([
    ['more than 4 decimals', 7.12345],
    ['over 100', 100.5],
    ['negative', -1],
  ])('refuses a percentage %s with E7650', async (_what, percentage) => {
    const res = await post('/tax_rates', { ...vat, percentage });
    expect(res.status).toBe(400);
    expectErrorObject(res.body, 'E7650');
  });

  it('refuses a string percentage or a lower-case country with E2000', async () => {
    expectErrorObject((await post('/tax_rates', { ...vat, percentage: '7' })).body, 'E2000');
    expectErrorObject((await post('/tax_rates', { ...vat, country: 'th' })).body, 'E2000');
  });

  it('updates display_name, active and metadata, never percentage or inclusive (E7651)', async () => {
    const created = await post('/tax_rates', vat);
    expectErrorObject((await post(`/tax_rates/${created.body.id}`, { percentage: 10 })).body, 'E7651');
    expectErrorObject((await post(`/tax_rates/${created.body.id}`, { inclusive: true })).body, 'E7651');
    const updated = await post(`/tax_rates/${created.body.id}`, {
      display_name: 'VAT 7%',
      active: false,
      metadata: { a: '1' },
    });
    expect(updated.body).toMatchObject({ display_name: 'VAT 7%', active: false, percentage: 7, metadata: { a: '1' } });
    const events = await get('/events?filter[type]=tax_rate.updated&limit=100');
    const event = events.body.data.find(
      (e: { data: { object: { id: string } } }) => e.data.object.id === created.body.id,
    );
    expect(event.data.previous_attributes).toEqual({ display_name: 'VAT', active: true, metadata: {} });
  });

  it("keeps another application's and the other mode's tax rates apart", async () => {
    const created = await post('/tax_rates', vat);
    expectErrorObject((await get(`/tax_rates/${created.body.id}`, 'test', other)).body, 'E4004');
    expectErrorObject((await get(`/tax_rates/${created.body.id}`, 'live')).body, 'E4004');
    expectErrorObject((await post(`/tax_rates/${created.body.id}`, { active: false }, 'live')).body, 'E4004');
  });
});
