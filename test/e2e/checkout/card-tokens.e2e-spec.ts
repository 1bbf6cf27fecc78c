import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { createTenant, expectErrorObject, startApp, type Tenant, type TestApp } from '../../support/harness.js';
import {
  CARDS,
  asSession,
  card,
  cardToken,
  createCheckout,
  createPaymentIntent,
  expectLedgerInvariants,
  paymentIntentCheckout,
  tokenize,
} from '../../factories/checkout.js';

const PAN = '4242424242424242';

/**
 * Card tokenization (docs/COLLECTION.md, "Card tokenization"): the test-mode vault takes the card
 * and answers a single-use, expiring token bound to the checkout; the payment API takes only the
 * token and refuses card data anywhere (E2009), without logging it.
 */
describe('card vault and card data refusal', () => {
  let t: TestApp;
  let tenant: Tenant;

  beforeAll(async () => {
    t = await startApp({ liveDoubles: true });
    tenant = await createTenant(t);
  });
  afterAll(async () => {
    await expectLedgerInvariants(t, [tenant.applicationId]);
    await t?.close();
  });

  const get = (path: string) => t.http.get(tenant.path(path)).set(tenant.as('test'));
  const pay = (checkout: { id: string; session: string }, body: object) =>
    t.http
      .post(tenant.path(`/checkouts/${checkout.id}/confirm`))
      .set(asSession(checkout.session))
      .send(body);

  it('answers a token with the card facts only, and stores neither the number nor the CVC', async () => {
    const { checkout } = await paymentIntentCheckout(t, tenant);
    const before = t.clock.nowMs();
    const res = await tokenize(t, tenant, checkout, {
      ...card('4242 4242 4242 4242').card,
      cvc: '987',
      name: 'Somchai',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^tok_[0-9a-f]{32}$/),
      object: 'token',
      type: 'card',
      livemode: false,
      used: false,
      card: {
        brand: 'visa',
        last4: '4242',
        exp_month: 12,
        exp_year: 2099,
        fingerprint: expect.any(String),
        name: 'Somchai',
      },
      created_at: expect.any(String),
      expires_at: expect.any(String),
    });
    expect(Date.parse(res.body.expires_at) - Date.parse(res.body.created_at)).toBe(15 * 60 * 1000);
    expect(Date.parse(res.body.created_at)).toBeGreaterThanOrEqual(before - 1000);
    expect(res.body.card.fingerprint).not.toContain('4242');
    const ds = t.app.get<DataSource>(getDataSourceToken('wallet_test'));
    const rows = await ds.query(
      `SELECT row_to_json(c)::text AS row FROM wallet_test.card_tokens c WHERE checkout_id = $1`,
      [checkout.id],
    );
    expect(rows).toHaveLength(1);
    const row = JSON.parse(rows[0].row);
    expect(rows[0].row).not.toContain(PAN);
    expect(Object.keys(row).filter((k) => /number|cvc|pan/.test(k))).toEqual([]);
    expect(Object.values(row)).not.toContain('987');
    expect(row).toMatchObject({ sandbox_outcome: 'succeeds', last4: '4242', used_at: null });
  });

  it('charges by token: the outcome is the one the number selected, and the token pays once', async () => {
    const { pi, checkout } = await paymentIntentCheckout(t, tenant);
    const declined = (await tokenize(t, tenant, checkout, card(CARDS.insufficient).card)).body.id;
    const first = await pay(checkout, cardToken(declined));
    expect(first.status).toBe(200);
    expect(first.body.charge).toMatchObject({ status: 'failed', failure_code: 'card_declined' });
    const again = await pay(checkout, cardToken(declined));
    expect(again.status).toBe(400);
    expectErrorObject(again.body, 'E7021');
    expect(again.body.message).toBe('This card token was already used.');
    const good = (await tokenize(t, tenant, checkout, card(CARDS.visa).card)).body.id;
    const paid = await pay(checkout, cardToken(good));
    expect(paid.body.charge).toMatchObject({ status: 'succeeded', payment_method: { card: { last4: '4242' } } });
    expect((await get(`/charges?filter[payment_intent]=${pi.id}`)).body.total_items).toBe(2);
  });

  it("refuses another checkout's token, an unknown one and an expired one (E7021) and charges nothing", async () => {
    const { pi, checkout } = await paymentIntentCheckout(t, tenant);
    const other = await paymentIntentCheckout(t, tenant);
    const foreign = (await tokenize(t, tenant, other.checkout, card(CARDS.visa).card)).body.id;
    const stale = (await tokenize(t, tenant, checkout, card(CARDS.visa).card)).body.id;
    for (const token of [foreign, 'tok_0193a1b2c3d47e8f9a0b1c2d3e4f5a6b', 'tokn_test_5x']) {
      const res = await pay(checkout, cardToken(token));
      expect({ token, status: res.status }).toEqual({ token, status: 400 });
      expectErrorObject(res.body, 'E7021');
    }
    t.clock.advance(15 * 60 * 1000);
    try {
      const res = await pay(checkout, cardToken(stale));
      expect(res.status).toBe(400);
      expectErrorObject(res.body, 'E7021');
      expect(res.body.message).toBe('This card token has expired.');
    } finally {
      t.clock.reset();
    }
    expect((await get(`/charges?filter[payment_intent]=${pi.id}`)).body.total_items).toBe(0);
    const malformed = await pay(checkout, cardToken('tok one'));
    expect(malformed.status).toBe(400);
    expectErrorObject(malformed.body, 'E2000');
  });

  it('has no vault in live mode (E4040): live cards go to the provider', async () => {
    const pi = await createPaymentIntent(t, tenant, {}, 'live');
    const checkout = await createCheckout(t, tenant, { target_type: 'payment_intent', target_id: pi.id }, 'live');
    const res = await tokenize(t, tenant, checkout, card(CARDS.visa).card);
    expect(res.status).toBe(404);
    expectErrorObject(res.body, 'E4040');
    const ds = t.app.get<DataSource>(getDataSourceToken('wallet_live'));
    expect(await ds.query(`SELECT id FROM wallet_live.card_tokens`)).toEqual([]);
  });

  it('checks the card at the vault (E7008) before any token exists', async () => {
    const { checkout } = await paymentIntentCheckout(t, tenant);
    for (const details of [
      card(CARDS.invalid).card,
      card(CARDS.visa, { exp_month: 1, exp_year: 2020 }).card,
      card(CARDS.visa, { cvc: 'abc' }).card,
    ]) {
      const res = await tokenize(t, tenant, checkout, details);
      expect(res.status).toBe(400);
      expectErrorObject(res.body, 'E7008');
    }
    const shape = await t.http
      .post(`/api/v1/${tenant.slug}/vault/tokens`)
      .set(asSession(checkout.session))
      .send({ card: { number: PAN } });
    expect(shape.status).toBe(400);
    expectErrorObject(shape.body, 'E2000');
  });

  it('refuses card data anywhere in a payment API request with E2009, naming the field, storing nothing', async () => {
    const { pi, checkout } = await paymentIntentCheckout(t, tenant);
    const cases: Array<[object, string]> = [
      [card(PAN), 'parameter "card.number"'],
      [card('4242 4242 4242 4242'), 'parameter "card.number"'],
      [{ payment_method_type: 'card', card: { number: '4242' } }, 'parameter "card.number"'],
      [{ payment_method_type: 'card', token: 'tok_x', cvc: '123' }, 'parameter "cvc"'],
      [{ payment_method_type: 'card', token: PAN }, 'parameter "token"'],
    ];
    for (const [body, where] of cases) {
      const res = await pay(checkout, body);
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
      expectErrorObject(res.body, 'E2009');
      expect(res.body.message).toContain(where);
      expect(res.body.message).not.toContain(PAN);
    }
    // Anywhere: a merchant's metadata, a query string, without credentials at all.
    const intent = await t.http
      .post(tenant.path('/payment_intents'))
      .set(tenant.as('test'))
      .send({ amount: 1000, currency: 'THB', metadata: { note: 'card 4000-0000-0000-0002' } });
    expect(intent.status).toBe(400);
    expectErrorObject(intent.body, 'E2009');
    expect(intent.body.message).toContain('parameter "metadata.note"');
    const search = await get(`/charges?q=${PAN}`);
    expect(search.status).toBe(400);
    expectErrorObject(search.body, 'E2009');
    const anonymous = await t.http.post(tenant.path(`/checkouts/${checkout.id}/confirm`)).send(card(PAN));
    expect(anonymous.status).toBe(400);
    expectErrorObject(anonymous.body, 'E2009');

    expect((await get(`/charges?filter[payment_intent]=${pi.id}`)).body.total_items).toBe(0);
    expect((await get(`/checkouts/${checkout.id}`)).body.status).toBe('open');
    // Long digit strings that are no card pass: a failing Luhn, an order number in metadata.
    const ok = await t.http
      .post(tenant.path('/payment_intents'))
      .set(tenant.as('test'))
      .send({ amount: 1000, currency: 'THB', metadata: { order: '4242424242424241', at: 1763802100000 } });
    expect(ok.status).toBe(200);
  });

  it('never logs a card number: not the vault body, not a refused request, not a URL', async () => {
    await get(`/charges/${PAN}`);
    const dir = process.env.WALLET_TEST_LOG_DIR;
    expect(dir).toBeTruthy();
    const text = readdirSync(dir!)
      .filter((name) => name.startsWith('app-'))
      .map((name) => readFileSync(join(dir!, name), 'utf8'))
      .join('\n');
    expect(text).toContain('[redacted card number]');
    for (const pan of [PAN, '4000000000000002', '4000000000009995']) {
      expect(text.replace(/[\s-]/g, '')).not.toContain(pan);
    }
  });
});
