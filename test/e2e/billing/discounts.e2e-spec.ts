import { createTenant, expectErrorObject, startApp, type Tenant, type TestApp } from '../../support/harness.js';

const DAY = 24 * 3600 * 1000;

describe('billing catalog: coupons and promotion codes', () => {
  let t: TestApp;
  let tenant: Tenant;
  let other: Tenant;

  const post = (path: string, body: object, mode: 'test' | 'live' = 'test', who = tenant) =>
    t.http.post(who.path(path)).set(who.as(mode)).send(body);
  const get = (path: string, mode: 'test' | 'live' = 'test', who = tenant) =>
    t.http.get(who.path(path)).set(who.as(mode));
  const future = (days: number) => new Date(t.clock.nowMs() + days * DAY).toISOString();
  const eventFor = async (type: string, id: string) =>
    (await get(`/events?filter[type]=${type}&limit=100`)).body.data.find(
      (e: { data: { object: { id: string } } }) => e.data.object.id === id,
    );

  beforeAll(async () => {
    t = await startApp({ rateLimit: false });
    tenant = await createTenant(t);
    other = await createTenant(t);
  });
  afterAll(() => t.close());

  describe('coupons', () => {
    it('creates a percent coupon and an amount coupon, reads, lists, and records coupon.created', async () => {
      const percent = await post('/coupons', {
        name: 'Launch',
        percent_off: 12.5,
        duration: 'repeating',
        duration_in_months: 3,
      });
      expect(percent.status).toBe(200);
      expect(percent.body).toMatchObject({
        object: 'coupon',
        livemode: false,
        name: 'Launch',
        percent_off: 12.5,
        amount_off: null,
        currency: null,
        duration: 'repeating',
        duration_in_months: 3,
        max_redemptions: null,
        redeem_by: null,
        times_redeemed: 0,
        valid: true,
      });
      const amount = await post('/coupons', {
        amount_off: 5000,
        currency: 'THB',
        max_redemptions: 2,
        redeem_by: future(30),
      });
      expect(amount.body).toMatchObject({
        amount_off: 5000,
        currency: 'THB',
        scaling_factor: 100,
        duration: 'once',
        max_redemptions: 2,
      });
      expect((await get(`/coupons/${percent.body.id}`)).body).toEqual(percent.body);
      const list = await get('/coupons?filter[duration]=repeating');
      expect(list.body.data.map((c: { id: string }) => c.id)).toContain(percent.body.id);
      expect(await eventFor('coupon.created', amount.body.id)).toBeDefined();
    });

    it.each([
      ['E7620', 'neither percent_off nor amount_off', {}],
      ['E7620', 'both percent_off and amount_off', { percent_off: 5, amount_off: 5, currency: 'THB' }],
      ['E7621', 'amount_off without currency', { amount_off: 5 }],
      ['E7621', 'percent_off with a currency', { percent_off: 5, currency: 'THB' }],
      ['E7622', 'percent_off 0', { percent_off: 0 }],
      ['E7622', 'percent_off over 100', { percent_off: 100.01 }],
      ['E7622', 'percent_off with 3 decimals', { percent_off: 10.125 }],
      ['E7623', 'repeating without duration_in_months', { percent_off: 5, duration: 'repeating' }],
      ['E7623', 'duration_in_months on a once coupon', { percent_off: 5, duration_in_months: 2 }],
      ['E7624', 'redeem_by in the past', { percent_off: 5, redeem_by: '2020-01-01T00:00:00Z' }],
      ['E2000', 'an unknown duration', { percent_off: 5, duration: 'weekly' }],
      ['E2000', 'a zero max_redemptions', { percent_off: 5, max_redemptions: 0 }],
    ])('refuses %s: %s', async (code, _what, body) => {
      const res = await post('/coupons', body);
      expect(res.status).toBe(400);
      expectErrorObject(res.body, code);
    });

    it('updates name and metadata only (E7626), recording coupon.updated', async () => {
      const coupon = await post('/coupons', { percent_off: 5, name: 'Five' });
      for (const body of [{ percent_off: 50 }, { max_redemptions: 5 }, { redeem_by: future(3) }]) {
        expectErrorObject((await post(`/coupons/${coupon.body.id}`, body)).body, 'E7626');
      }
      const updated = await post(`/coupons/${coupon.body.id}`, { name: 'Five off', metadata: { a: 'b' } });
      expect(updated.body).toMatchObject({ name: 'Five off', percent_off: 5, metadata: { a: 'b' } });
      expect((await eventFor('coupon.updated', coupon.body.id)).data.previous_attributes).toEqual({
        name: 'Five',
        metadata: {},
      });
    });

    it('deletes a coupon: then it is not found, takes no promotion code, and coupon.deleted is recorded', async () => {
      const coupon = await post('/coupons', { percent_off: 5 });
      const deleted = await t.http.delete(tenant.path(`/coupons/${coupon.body.id}`)).set(tenant.as('test'));
      expect(deleted.status).toBe(200);
      expect(deleted.body).toEqual({ id: coupon.body.id, object: 'coupon', livemode: false, deleted: true });
      expectErrorObject((await get(`/coupons/${coupon.body.id}`)).body, 'E4004');
      expectErrorObject(
        (await t.http.delete(tenant.path(`/coupons/${coupon.body.id}`)).set(tenant.as('test'))).body,
        'E4004',
      );
      expect((await eventFor('coupon.deleted', coupon.body.id)).data.object.valid).toBe(false);
      expectErrorObject((await post('/promotion_codes', { coupon_id: coupon.body.id })).body, 'E7642');
    });

    it("keeps another application's and the other mode's coupons apart", async () => {
      const coupon = await post('/coupons', { percent_off: 5 });
      expectErrorObject((await get(`/coupons/${coupon.body.id}`, 'test', other)).body, 'E4004');
      expectErrorObject((await get(`/coupons/${coupon.body.id}`, 'live')).body, 'E4004');
      expectErrorObject((await post('/promotion_codes', { coupon_id: coupon.body.id }, 'test', other)).body, 'E7625');
      expectErrorObject((await post('/promotion_codes', { coupon_id: coupon.body.id }, 'live')).body, 'E7625');
    });
  });

  describe('promotion codes', () => {
    let couponId: string;
    beforeAll(async () => {
      couponId = (await post('/coupons', { percent_off: 10 })).body.id;
    });

    it('creates a code with its coupon embedded and restrictions, reads, lists, and records promotion_code.created', async () => {
      const created = await post('/promotion_codes', {
        coupon_id: couponId,
        code: 'Launch10',
        max_redemptions: 5,
        expires_at: future(10),
        restrictions: { first_time_transaction: true, minimum_amount: 10000, minimum_amount_currency: 'THB' },
        metadata: { channel: 'email' },
      });
      expect(created.status).toBe(200);
      expect(created.body).toMatchObject({
        object: 'promotion_code',
        livemode: false,
        code: 'Launch10',
        coupon: { id: couponId, object: 'coupon', percent_off: 10 },
        active: true,
        max_redemptions: 5,
        times_redeemed: 0,
        restrictions: { first_time_transaction: true, minimum_amount: 10000, minimum_amount_currency: 'THB' },
        metadata: { channel: 'email' },
      });
      expect((await get(`/promotion_codes/${created.body.id}`)).body).toEqual(created.body);
      const list = await get(`/promotion_codes?filter[coupon_id]=${couponId}&filter[code]=Launch10`);
      expect(list.body.data).toEqual([created.body]);
      expect(await eventFor('promotion_code.created', created.body.id)).toBeDefined();
    });

    it('generates a code when none is sent', async () => {
      const created = await post('/promotion_codes', { coupon_id: couponId });
      expect(created.body.code).toMatch(/^[A-Z2-9]{10}$/);
    });

    it('refuses the same code in another letter case with E7630, but allows it in the other mode and application', async () => {
      await post('/promotion_codes', { coupon_id: couponId, code: 'SUMMER' });
      const again = await post('/promotion_codes', { coupon_id: couponId, code: 'summer' });
      expect(again.status).toBe(409);
      expectErrorObject(again.body, 'E7630');
      const liveCoupon = await post('/coupons', { percent_off: 10 }, 'live');
      expect((await post('/promotion_codes', { coupon_id: liveCoupon.body.id, code: 'summer' }, 'live')).status).toBe(
        200,
      );
      const otherCoupon = await post('/coupons', { percent_off: 10 }, 'test', other);
      expect(
        (await post('/promotion_codes', { coupon_id: otherCoupon.body.id, code: 'Summer' }, 'test', other)).status,
      ).toBe(200);
    });

    it.each([
      ['E7625', 'an unknown coupon', { coupon_id: '0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b' }],
      ['E7640', 'minimum_amount without its currency', { restrictions: { minimum_amount: 100 } }],
      ['E7640', 'a minimum currency without the amount', { restrictions: { minimum_amount_currency: 'THB' } }],
      ['E7641', 'expires_at in the past', { expires_at: '2020-01-01T00:00:00Z' }],
      ['E2000', 'a code with spaces', { code: 'TWO WORDS' }],
    ])('refuses %s: %s', async (code, _what, body) => {
      const res = await post('/promotion_codes', { coupon_id: couponId, ...body });
      expect(res.status).toBe(400);
      expectErrorObject(res.body, code);
    });

    it('refuses a code for an exhausted or expired coupon with E7642', async () => {
      const expiring = await post('/coupons', { percent_off: 10, redeem_by: future(1) });
      t.clock.advance(2 * DAY);
      expectErrorObject((await post('/promotion_codes', { coupon_id: expiring.body.id })).body, 'E7642');
      expect((await get(`/coupons/${expiring.body.id}`)).body.valid).toBe(false);
    });

    it('updates active and metadata only (E7643), recording promotion_code.updated', async () => {
      const created = await post('/promotion_codes', { coupon_id: couponId });
      for (const body of [{ code: 'NEW' }, { max_redemptions: 3 }, { restrictions: {} }, { coupon_id: couponId }]) {
        expectErrorObject((await post(`/promotion_codes/${created.body.id}`, body)).body, 'E7643');
      }
      const updated = await post(`/promotion_codes/${created.body.id}`, { active: false, metadata: { x: '1' } });
      expect(updated.body).toMatchObject({ active: false, metadata: { x: '1' }, coupon: { id: couponId } });
      const event = await eventFor('promotion_code.updated', created.body.id);
      expect(event.data.previous_attributes).toEqual({ active: true, metadata: {} });
    });

    it("answers another application's or the other mode's promotion code with E4004", async () => {
      const created = await post('/promotion_codes', { coupon_id: couponId });
      expectErrorObject((await get(`/promotion_codes/${created.body.id}`, 'test', other)).body, 'E4004');
      expectErrorObject((await get(`/promotion_codes/${created.body.id}`, 'live')).body, 'E4004');
    });
  });
});
