import type { Mode } from '../../src/common/context/principal.js';
import type { Tenant, TestApp } from '../support/harness.js';

export const CARDS = {
  visa: '4242 4242 4242 4242',
  declined: '4000000000000002',
  insufficient: '4000000000009995',
  disputed: '4000000000000259',
  invalid: '4242424242424241',
};

/**
 * The card a buyer types on the hosted page. `confirm` below sends it the way the page does: to
 * the test-mode vault, then the payment with the token only (the payment API refuses card data).
 */
export const card = (number: string, extra: Record<string, unknown> = {}) => ({
  payment_method_type: 'card',
  card: { number, exp_month: 12, exp_year: 2099, cvc: '123', ...extra },
});

/** What a live provider's script hands the page (the harness's live double charges any such token). */
export const LIVE_PROVIDER_TOKEN = 'tokn_live_double_4242';

/** The vault route (outside the payment API's base path). */
export const vaultPath = (tenant: Tenant) => `/api/v1/${tenant.slug}/vault/tokens`;

/** The hosted page's first step: the card to the test-mode vault, with the checkout's session. */
export function tokenize(
  t: TestApp,
  tenant: Tenant,
  checkout: { session: string },
  details: Record<string, unknown>,
  country = 'TH',
) {
  return t.http.post(vaultPath(tenant)).set(asSession(checkout.session, country)).send({ card: details });
}

/** A card payment body with a token (of the vault, or LIVE_PROVIDER_TOKEN). */
export const cardToken = (token: string) => ({ payment_method_type: 'card', token });

export async function createCustomer(t: TestApp, tenant: Tenant, mode: Mode = 'test', body: object = {}) {
  const res = await t.http
    .post(tenant.path('/customers'))
    .set(tenant.as(mode))
    .send({ name: 'Somchai Jaidee', ...body });
  expect(res.status).toBe(200);
  return res.body as { id: string };
}

export async function createPaymentIntent(t: TestApp, tenant: Tenant, body: object = {}, mode: Mode = 'test') {
  const res = await t.http
    .post(tenant.path('/payment_intents'))
    .set(tenant.as(mode))
    .send({ amount: 125000, currency: 'THB', ...body });
  expect({ status: res.status, body: res.body }).toMatchObject({ status: 200 });
  return res.body;
}

/** An open (finalized) invoice for a new customer. */
export async function createOpenInvoice(t: TestApp, tenant: Tenant, body: object = {}, mode: Mode = 'test') {
  const customer = await createCustomer(t, tenant, mode);
  const res = await t.http
    .post(tenant.path('/invoices'))
    .set(tenant.as(mode))
    .send({
      customer_id: customer.id,
      currency: 'THB',
      line_items: [
        { description: 'Consulting', amount: 50000, quantity: 2 },
        { description: 'Loyalty discount', amount: -5000 },
      ],
      ...body,
    });
  expect({ status: res.status, body: res.body }).toMatchObject({ status: 200 });
  const finalized = await t.http.post(tenant.path(`/invoices/${res.body.id}/finalize`)).set(tenant.as(mode));
  expect(finalized.status).toBe(200);
  return finalized.body;
}

export async function createCheckout(t: TestApp, tenant: Tenant, body: object, mode: Mode = 'test') {
  const res = await t.http.post(tenant.path('/checkouts')).set(tenant.as(mode)).send(body);
  expect({ status: res.status, body: res.body }).toMatchObject({ status: 200 });
  return res.body;
}

/** What the hosted page sends: the session and the country, nothing else. */
/** A new payment intent (`body` sets its fields) and a checkout for it. */
export async function paymentIntentCheckout(t: TestApp, tenant: Tenant, body: object = {}, mode: Mode = 'test') {
  const pi = await createPaymentIntent(t, tenant, body, mode);
  const checkout = await createCheckout(t, tenant, { target_type: 'payment_intent', target_id: pi.id }, mode);
  return { pi, checkout };
}

export function asSession(session: string, country = 'TH') {
  return { 'X-Session-Token': session, 'X-Country': country };
}

/**
 * Pays a checkout as the hosted page does. A body with card details (`card(...)`) is tokenized
 * first, at the vault in test mode (a refusal there, E7008 or a session error, is the answer, as
 * the page would show it), or replaced by a live provider's token for a live checkout; the payment
 * API then gets `{payment_method_type: "card", token}` and the body's other fields, never the card.
 */
export async function confirm(
  t: TestApp,
  tenant: Tenant,
  checkout: { id: string; session: string; livemode?: boolean },
  body: object,
  headers: Record<string, string> = {},
) {
  let sent: object = body;
  const { card: details, ...rest } = body as { card?: unknown };
  if (details !== null && typeof details === 'object' && !Array.isArray(details)) {
    let token = LIVE_PROVIDER_TOKEN;
    if (!checkout.livemode) {
      const made = await tokenize(t, tenant, checkout, details as Record<string, unknown>);
      if (made.status !== 200) return made;
      token = made.body.id;
    }
    sent = { ...rest, token };
  }
  return t.http
    .post(tenant.path(`/checkouts/${checkout.id}/confirm`))
    .set({ ...asSession(checkout.session), ...headers })
    .send(sent);
}

/** A KYB-verified connected account (through the accounts API and its test helper). */
export async function connectedAccount(t: TestApp, tenant: Tenant, verify = true) {
  const res = await t.http.post(tenant.path('/accounts')).set(tenant.as('test')).send({ name: 'Seller Co.' });
  expect({ status: res.status, body: res.body }).toMatchObject({ status: 200 });
  if (verify) {
    const verified = await t.http
      .post(tenant.path(`/test_helpers/accounts/${res.body.id}/verify`))
      .set(tenant.as('test'));
    expect(verified.status).toBe(200);
  }
  return res.body as { id: string };
}

export { expectLedgerInvariants } from '../support/ledger-invariants.js';
