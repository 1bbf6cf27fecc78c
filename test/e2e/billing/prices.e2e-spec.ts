import { createTenant, expectErrorObject, startApp, type Tenant, type TestApp } from '../../support/harness.js';

describe('billing catalog: products and prices', () => {
  let t: TestApp;
  let tenant: Tenant;
  let other: Tenant;
  let productId: string;
  let meterId: string;

  const post = (path: string, body: object, mode: 'test' | 'live' = 'test', who = tenant) =>
    t.http.post(who.path(path)).set(who.as(mode)).send(body);
  const get = (path: string, mode: 'test' | 'live' = 'test', who = tenant) =>
    t.http.get(who.path(path)).set(who.as(mode));
  const price = (body: object) => post('/prices', { product_id: productId, currency: 'THB', ...body });
  const eventsOf = async (type: string) =>
    (await get(`/events?filter[type]=${type}&limit=100`)).body.data as Array<{
      data: { object: { id: string }; previous_attributes?: Record<string, unknown> };
    }>;

  beforeAll(async () => {
    t = await startApp({ rateLimit: false });
    tenant = await createTenant(t);
    other = await createTenant(t);
    const product = await post('/products', { name: 'Pro plan', description: 'Ten seats', metadata: { tier: 'pro' } });
    expect(product.status).toBe(200);
    productId = product.body.id;
    const meter = await post('/meters', {
      display_name: 'API calls',
      event_name: 'api_call',
      value_settings: { event_payload_key: 'calls' },
    });
    meterId = meter.body.id;
  });
  afterAll(() => t.close());

  describe('products', () => {
    it('creates a product, reads it back, lists it and records product.created', async () => {
      const read = await get(`/products/${productId}`);
      expect(read.status).toBe(200);
      expect(read.body).toMatchObject({
        id: productId,
        object: 'product',
        livemode: false,
        name: 'Pro plan',
        description: 'Ten seats',
        active: true,
        metadata: { tier: 'pro' },
      });
      const list = await get('/products?limit=100&filter[active]=true');
      expect(list.body.data.map((p: { id: string }) => p.id)).toContain(productId);
      expect((await eventsOf('product.created')).map((e) => e.data.object.id)).toContain(productId);
    });

    it('updates name, active and metadata and records product.updated with the previous values', async () => {
      const created = await post('/products', { name: 'Basic', metadata: { a: '1', b: '2' } });
      const updated = await post(`/products/${created.body.id}`, {
        name: 'Basic+',
        active: false,
        metadata: { a: '' },
      });
      expect(updated.status).toBe(200);
      expect(updated.body).toMatchObject({ name: 'Basic+', active: false, metadata: { b: '2' } });
      const event = (await eventsOf('product.updated')).find((e) => e.data.object.id === created.body.id);
      expect(event?.data.previous_attributes).toEqual({ name: 'Basic', active: true, metadata: { a: '1', b: '2' } });
    });

    it('answers an unknown or malformed product id with E4004', async () => {
      expectErrorObject((await get('/products/0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b')).body, 'E4004');
      expectErrorObject((await get('/products/nope')).body, 'E4004');
      expectErrorObject((await post('/products/nope', { name: 'x' })).body, 'E4004');
    });

    it("keeps another application's and the other mode's products apart", async () => {
      expect((await get(`/products/${productId}`, 'test', other)).status).toBe(404);
      expect((await get(`/products/${productId}`, 'live')).status).toBe(404);
      const live = await post('/products', { name: 'Live plan' }, 'live');
      expect(live.body.livemode).toBe(true);
      expect((await get(`/products/${live.body.id}`, 'test')).status).toBe(404);
    });

    it('refuses an empty name with E2000', async () => {
      expectErrorObject((await post('/products', { name: '' })).body, 'E2000');
    });
  });

  describe('prices', () => {
    it('creates a recurring per_unit price with its scaling_factor and records price.created', async () => {
      const created = await price({
        unit_amount: 29900,
        recurring: { interval: 'month' },
        lookup_key: 'pro_monthly',
        metadata: { plan: 'pro' },
      });
      expect(created.status).toBe(200);
      expect(created.body).toMatchObject({
        object: 'price',
        livemode: false,
        product_id: productId,
        active: true,
        currency: 'THB',
        scaling_factor: 100,
        type: 'recurring',
        billing_scheme: 'per_unit',
        unit_amount: 29900,
        tiers: null,
        tiers_mode: null,
        transform_quantity: null,
        recurring: { interval: 'month', interval_count: 1, usage_type: 'licensed', meter_id: null },
        tax_behavior: 'exclusive',
        lookup_key: 'pro_monthly',
      });
      expect((await get(`/prices/${created.body.id}`)).body).toEqual(created.body);
      expect((await eventsOf('price.created')).map((e) => e.data.object.id)).toContain(created.body.id);
    });

    it('creates a one-time price in a zero-decimal currency with scaling_factor 1', async () => {
      const created = await post('/prices', { product_id: productId, currency: 'JPY', unit_amount: 500 });
      expect(created.body).toMatchObject({ type: 'one_time', scaling_factor: 1, recurring: null });
    });

    it('creates a graduated tiered price and a metered price on a meter of the application', async () => {
      const tiered = await price({
        billing_scheme: 'tiered',
        tiers_mode: 'graduated',
        tiers: [
          { up_to: 1000, unit_amount: 0 },
          { up_to: 10000, unit_amount: 50, flat_amount: 1000 },
          { up_to: 'inf', unit_amount: 25 },
        ],
        recurring: { interval: 'month', usage_type: 'metered', meter_id: meterId },
      });
      expect(tiered.status).toBe(200);
      expect(tiered.body).toMatchObject({
        billing_scheme: 'tiered',
        unit_amount: null,
        tiers: [
          { up_to: 1000, unit_amount: 0, flat_amount: null },
          { up_to: 10000, unit_amount: 50, flat_amount: 1000 },
          { up_to: 'inf', unit_amount: 25, flat_amount: null },
        ],
        recurring: { usage_type: 'metered', meter_id: meterId },
      });
      const transformed = await price({ unit_amount: 100, transform_quantity: { divide_by: 10, round: 'up' } });
      expect(transformed.body.transform_quantity).toEqual({ divide_by: 10, round: 'up' });
    });

    it.each([
      ['E7602', 'per_unit without unit_amount', {}],
      [
        'E7603',
        'tiered with unit_amount',
        { billing_scheme: 'tiered', unit_amount: 5, tiers_mode: 'volume', tiers: [{ up_to: 'inf', unit_amount: 1 }] },
      ],
      ['E7604', 'tiered without tiers', { billing_scheme: 'tiered', tiers_mode: 'volume' }],
      ['E7604', 'tiered without tiers_mode', { billing_scheme: 'tiered', tiers: [{ up_to: 'inf', unit_amount: 1 }] }],
      ['E7605', 'per_unit with tiers', { unit_amount: 5, tiers: [{ up_to: 'inf', unit_amount: 1 }] }],
      ['E7605', 'per_unit with tiers_mode', { unit_amount: 5, tiers_mode: 'graduated' }],
      [
        'E7606',
        'tiers not ascending',
        {
          billing_scheme: 'tiered',
          tiers_mode: 'graduated',
          tiers: [
            { up_to: 10, unit_amount: 1 },
            { up_to: 10, unit_amount: 1 },
            { up_to: 'inf', unit_amount: 1 },
          ],
        },
      ],
      [
        'E7607',
        'last tier not inf',
        { billing_scheme: 'tiered', tiers_mode: 'graduated', tiers: [{ up_to: 10, unit_amount: 1 }] },
      ],
      [
        'E7607',
        'inf before the last tier',
        {
          billing_scheme: 'tiered',
          tiers_mode: 'graduated',
          tiers: [
            { up_to: 'inf', unit_amount: 1 },
            { up_to: 'inf', unit_amount: 1 },
          ],
        },
      ],
      [
        'E7608',
        'a tier without amounts',
        { billing_scheme: 'tiered', tiers_mode: 'volume', tiers: [{ up_to: 'inf' }] },
      ],
      ['E7609', 'metered without meter', { unit_amount: 5, recurring: { interval: 'month', usage_type: 'metered' } }],
      [
        'E7610',
        'licensed with a meter',
        { unit_amount: 5, recurring: { interval: 'month', meter_id: '0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b' } },
      ],
      [
        'E7611',
        'an unknown meter',
        {
          unit_amount: 5,
          recurring: { interval: 'month', usage_type: 'metered', meter_id: '0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b' },
        },
      ],
      [
        'E7613',
        'transform_quantity on a tiered price',
        {
          billing_scheme: 'tiered',
          tiers_mode: 'volume',
          tiers: [{ up_to: 'inf', unit_amount: 1 }],
          transform_quantity: { divide_by: 2, round: 'up' },
        },
      ],
      ['E7614', 'an interval over a year', { unit_amount: 5, recurring: { interval: 'month', interval_count: 13 } }],
      ['E2000', 'a negative unit_amount', { unit_amount: -1 }],
      ['E2000', 'a fractional unit_amount', { unit_amount: 1.5 }],
      [
        'E2000',
        'up_to zero',
        { billing_scheme: 'tiered', tiers_mode: 'volume', tiers: [{ up_to: 0, unit_amount: 1 }] },
      ],
      ['E2000', 'an unknown interval', { unit_amount: 5, recurring: { interval: 'hour' } }],
    ])('refuses %s: %s', async (code, _what, body) => {
      const res = await price(body);
      expectErrorObject(res.body, code);
      expect(res.status).toBe(400);
    });

    it('refuses an unknown, foreign or inactive product with E7600 / E7601', async () => {
      expectErrorObject(
        (await price({ product_id: '0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b', unit_amount: 1 })).body,
        'E7600',
      );
      expectErrorObject(
        (await post('/prices', { product_id: productId, currency: 'THB', unit_amount: 1 }, 'test', other)).body,
        'E7600',
      );
      expectErrorObject(
        (await post('/prices', { product_id: productId, currency: 'THB', unit_amount: 1 }, 'live')).body,
        'E7600',
      );
      const archived = await post('/products', { name: 'Old', active: false });
      expectErrorObject((await price({ product_id: archived.body.id, unit_amount: 1 })).body, 'E7601');
    });

    it("refuses another application's meter with E7611", async () => {
      const foreign = await post(
        '/meters',
        { display_name: 'Other', event_name: 'other_call', value_settings: { event_payload_key: 'n' } },
        'test',
        other,
      );
      const res = await price({
        unit_amount: 5,
        recurring: { interval: 'month', usage_type: 'metered', meter_id: foreign.body.id },
      });
      expectErrorObject(res.body, 'E7611');
    });

    it('never changes the amounts of a price (E7615) but updates active, lookup_key and metadata', async () => {
      const created = await price({ unit_amount: 1000, metadata: { a: '1' } });
      for (const body of [
        { unit_amount: 2000 },
        { currency: 'USD' },
        { recurring: { interval: 'year' } },
        { tiers: [] },
      ]) {
        const res = await post(`/prices/${created.body.id}`, body);
        expect(res.status).toBe(400);
        expectErrorObject(res.body, 'E7615');
      }
      const updated = await post(`/prices/${created.body.id}`, {
        active: false,
        lookup_key: 'old_one',
        metadata: { b: '2' },
      });
      expect(updated.body).toMatchObject({
        unit_amount: 1000,
        active: false,
        lookup_key: 'old_one',
        metadata: { a: '1', b: '2' },
      });
      expect((await get(`/prices/${created.body.id}`)).body.unit_amount).toBe(1000);
      const event = (await eventsOf('price.updated')).find((e) => e.data.object.id === created.body.id);
      expect(event?.data.previous_attributes).toEqual({ active: true, lookup_key: null, metadata: { a: '1' } });
    });

    it('keeps lookup_key unique among active prices, and moves it with transfer_lookup_key', async () => {
      const first = await price({ unit_amount: 100, lookup_key: 'starter' });
      expectErrorObject((await price({ unit_amount: 200, lookup_key: 'starter' })).body, 'E7612');
      const second = await price({ unit_amount: 200, lookup_key: 'starter', transfer_lookup_key: true });
      expect(second.status).toBe(200);
      expect((await get(`/prices/${first.body.id}`)).body.lookup_key).toBeNull();
      // An inactive price may keep a key an active price holds; reactivating it conflicts.
      const third = await price({ unit_amount: 300, lookup_key: 'starter', active: false });
      expect(third.status).toBe(200);
      expectErrorObject((await post(`/prices/${third.body.id}`, { active: true })).body, 'E7612');
      expect(
        (await post(`/prices/${third.body.id}`, { active: true, transfer_lookup_key: true })).body.lookup_key,
      ).toBe('starter');
      expect((await get(`/prices/${second.body.id}`)).body.lookup_key).toBeNull();
      const byKey = await get('/prices?filter[lookup_key]=starter&filter[active]=true');
      expect(byKey.body.data.map((p: { id: string }) => p.id)).toEqual([third.body.id]);
    });

    it("answers another application's or the other mode's price with E4004", async () => {
      const created = await price({ unit_amount: 100 });
      expectErrorObject((await get(`/prices/${created.body.id}`, 'test', other)).body, 'E4004');
      expectErrorObject((await post(`/prices/${created.body.id}`, { active: false }, 'test', other)).body, 'E4004');
      expectErrorObject((await get(`/prices/${created.body.id}`, 'live')).body, 'E4004');
    });

    it('lists prices by product, type and currency, in cursor mode too', async () => {
      const product = await post('/products', { name: 'Listed' });
      const ids: string[] = [];
      for (const unit of [1, 2, 3]) {
        ids.push(
          (await price({ product_id: product.body.id, unit_amount: unit, recurring: { interval: 'week' } })).body.id,
        );
      }
      const page = await get(
        `/prices?filter[product_id]=${product.body.id}&filter[type]=recurring&limit=2&use-cursor=true`,
      );
      expect(page.body).toMatchObject({ object: 'list', total_items: 3, has_more: true });
      expect(page.body.data.map((p: { id: string }) => p.id)).toEqual([ids[2], ids[1]]);
      expectErrorObject((await get('/prices?filter[type]=weekly')).body, 'E2004');
    });
  });
});
