import { RequestContext } from '../../../src/common/context/request-context.js';
import { scopeOf, type Scope } from '../../../src/common/context/principal.js';
import { ModeDb } from '../../../src/common/database/mode-db.js';
import { AppError } from '../../../src/common/errors/app-error.js';
import { CouponsService, PromotionCodesService, type RedemptionInput } from '../../../src/modules/billing/index.js';
import { createTenant, startApp, type Tenant, type TestApp } from '../../support/harness.js';

const DAY = 24 * 3600 * 1000;

/**
 * Redemption is a service other modules call inside their own transaction (checkout, subscriptions):
 * these tests call it as they will, through the app's PromotionCodesService and the mode's database.
 */
describe('billing catalog: redeeming promotion codes and coupons', () => {
  let t: TestApp;
  let tenant: Tenant;
  let scope: Scope;

  const post = (path: string, body: object) => t.http.post(tenant.path(path)).set(tenant.as('test')).send(body);
  const get = (path: string) => t.http.get(tenant.path(path)).set(tenant.as('test'));
  const inTest = <T>(work: () => Promise<T>) => t.app.get(RequestContext).runInMode('test', work);
  const thb = (amount: number, extra: Partial<RedemptionInput> = {}): RedemptionInput => ({
    amount,
    currency: 'THB',
    ...extra,
  });

  /** One redemption in a transaction of its own: the coupon's id, or the refusal's code. */
  const redeem = (code: string, input: RedemptionInput = thb(50000)) =>
    inTest(() =>
      t.app.get(ModeDb).transaction((manager) => t.app.get(PromotionCodesService).redeem(manager, scope, code, input)),
    ).then(
      (r) => r.coupon.id,
      (err: unknown) => {
        if (err instanceof AppError) return err.definition.code;
        throw err;
      },
    );
  const redeemCoupon = (couponId: string, input: RedemptionInput = thb(50000)) =>
    inTest(() =>
      t.app.get(ModeDb).transaction((m) => t.app.get(CouponsService).redeem(m, scope, couponId, input)),
    ).then(
      (c) => c.id,
      (err: unknown) => (err instanceof AppError ? err.definition.code : Promise.reject(err)),
    );

  const coupon = async (body: object = { percent_off: 10 }) => (await post('/coupons', body)).body.id as string;
  const code = async (body: object) => {
    const res = await post('/promotion_codes', body);
    if (res.status !== 200) throw new Error(JSON.stringify(res.body));
    return res.body as { id: string; code: string };
  };

  beforeAll(async () => {
    t = await startApp({ rateLimit: false });
    tenant = await createTenant(t);
    scope = scopeOf({ id: tenant.applicationId, slug: tenant.slug, name: tenant.slug, countries: ['TH'] }, 'test');
  });
  afterAll(() => t.close());

  it('redeems a code in any letter case, counting the code and its coupon', async () => {
    const couponId = await coupon();
    const promo = await code({ coupon_id: couponId, code: 'Welcome' });
    expect(await redeem('WELCOME')).toBe(couponId);
    expect(await redeem('welcome')).toBe(couponId);
    expect((await get(`/promotion_codes/${promo.id}`)).body).toMatchObject({
      times_redeemed: 2,
      coupon: { times_redeemed: 2 },
    });
  });

  it('never redeems a code more than max_redemptions times under 50 concurrent redemptions', async () => {
    const couponId = await coupon();
    const promo = await code({ coupon_id: couponId, code: 'RUSH7', max_redemptions: 7 });
    const results = await Promise.all(Array.from({ length: 50 }, () => redeem('RUSH7')));
    expect(results.filter((r) => r === couponId)).toHaveLength(7);
    expect(results.filter((r) => r !== couponId)).toEqual(Array(43).fill('E7634'));
    expect((await get(`/promotion_codes/${promo.id}`)).body).toMatchObject({
      times_redeemed: 7,
      coupon: { times_redeemed: 7 },
    });
  });

  it("never redeems a coupon past its max_redemptions through several codes at once, and the refused codes' counts roll back", async () => {
    const couponId = await coupon({ percent_off: 10, max_redemptions: 5 });
    const codes = await Promise.all(['A', 'B', 'C'].map((c) => code({ coupon_id: couponId, code: `SHARED_${c}` })));
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => redeem(codes[i % 3].code)));
    expect(results.filter((r) => r === couponId)).toHaveLength(5);
    expect(new Set(results.filter((r) => r !== couponId))).toEqual(new Set(['E7636']));
    const counts = await Promise.all(
      codes.map(async (c) => (await get(`/promotion_codes/${c.id}`)).body.times_redeemed),
    );
    expect(counts.reduce((s: number, n: number) => s + n, 0)).toBe(5);
    expect((await get(`/coupons/${couponId}`)).body).toMatchObject({ times_redeemed: 5, valid: false });
  });

  it('redeems a coupon directly, at most max_redemptions times under concurrency', async () => {
    const couponId = await coupon({ amount_off: 1000, currency: 'THB', max_redemptions: 3 });
    const results = await Promise.all(Array.from({ length: 20 }, () => redeemCoupon(couponId)));
    expect(results.filter((r) => r === couponId)).toHaveLength(3);
    expect(results.filter((r) => r !== couponId)).toEqual(Array(17).fill('E7636'));
    expect(await redeemCoupon('0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b')).toBe('E7625');
    expect(await redeemCoupon(await coupon({ amount_off: 100, currency: 'USD' }))).toBe('E7639');
  });

  it('rolls the counts back with the caller when its transaction fails after redeeming', async () => {
    const couponId = await coupon({ percent_off: 10, max_redemptions: 1 });
    const promo = await code({ coupon_id: couponId, code: 'ROLLBACK' });
    await expect(
      inTest(() =>
        t.app.get(ModeDb).transaction(async (manager) => {
          await t.app.get(PromotionCodesService).redeem(manager, scope, 'ROLLBACK', thb(100));
          throw new Error('the checkout failed afterwards');
        }),
      ),
    ).rejects.toThrow('the checkout failed afterwards');
    expect((await get(`/promotion_codes/${promo.id}`)).body).toMatchObject({
      times_redeemed: 0,
      coupon: { times_redeemed: 0 },
    });
    expect(await redeem('ROLLBACK')).toBe(couponId);
  });

  it('refuses each case with its own code', async () => {
    const couponId = await coupon();
    expect(await redeem('NO_SUCH_CODE')).toBe('E7631');
    const inactive = await code({ coupon_id: couponId, code: 'OFF' });
    await post(`/promotion_codes/${inactive.id}`, { active: false });
    expect(await redeem('OFF')).toBe('E7632');
    await code({ coupon_id: couponId, code: 'FIRST', restrictions: { first_time_transaction: true } });
    expect(await redeem('FIRST')).toBe('E7637');
    expect(await redeem('FIRST', thb(100, { firstTimeTransaction: true, customerId: 'c' }))).toBe(couponId);
    await code({
      coupon_id: couponId,
      code: 'MIN',
      restrictions: { minimum_amount: 10000, minimum_amount_currency: 'THB' },
    });
    expect(await redeem('MIN', thb(9999))).toBe('E7638');
    expect(await redeem('MIN', { amount: 20000, currency: 'USD' })).toBe('E7639');
    expect(await redeem('MIN', thb(10000))).toBe(couponId);
    const amountOff = await coupon({ amount_off: 500, currency: 'THB' });
    await code({ coupon_id: amountOff, code: 'THB500' });
    expect(await redeem('THB500', { amount: 20000, currency: 'USD' })).toBe('E7639');
    const once = await code({ coupon_id: couponId, code: 'ONCE', max_redemptions: 1 });
    expect(await redeem('ONCE')).toBe(couponId);
    expect(await redeem('ONCE')).toBe('E7634');
    expect((await get(`/promotion_codes/${once.id}`)).body.times_redeemed).toBe(1);
    const deletedCoupon = await coupon();
    await code({ coupon_id: deletedCoupon, code: 'GONE' });
    await t.http.delete(tenant.path(`/coupons/${deletedCoupon}`)).set(tenant.as('test'));
    expect(await redeem('GONE')).toBe('E7635');
  });

  it('refuses an expired code (E7633) and a code whose coupon passed redeem_by (E7635), by the clock', async () => {
    const soon = await coupon({ percent_off: 10, redeem_by: new Date(t.clock.nowMs() + 3 * DAY).toISOString() });
    await code({ coupon_id: soon, code: 'LATE_COUPON' });
    const lasting = await coupon();
    await code({ coupon_id: lasting, code: 'LATE_CODE', expires_at: new Date(t.clock.nowMs() + DAY).toISOString() });
    expect(await redeem('LATE_CODE')).toBe(lasting);
    t.clock.advance(2 * DAY);
    expect(await redeem('LATE_CODE')).toBe('E7633');
    expect(await redeem('LATE_COUPON')).toBe(soon);
    t.clock.advance(2 * DAY);
    expect(await redeem('LATE_COUPON')).toBe('E7635');
  });
});
