import type { Tenant, TestApp } from '../support/harness.js';
import { asSession, card, createCheckout, createCustomer, tokenize } from './checkout.js';

/** Stripe's test cards for saved-card outcomes (docs/COLLECTION.md, "Saved payment methods"). */
export const SAVED_CARDS = {
  succeeds: '4242424242424242',
  declined: '4000000000000002',
  insufficient: '4000000000009995',
  authentication: '4000002500003155',
};

/** A setup checkout for the customer (mode `setup`, target the customer). */
export function setupCheckout(t: TestApp, tenant: Tenant, customerId: string, body: object = {}) {
  return createCheckout(t, tenant, { mode: 'setup', target_type: 'customer', target_id: customerId, ...body });
}

/** The hosted page's steps for a setup checkout: the card to the vault, then confirm with the token. */
export async function saveCard(t: TestApp, tenant: Tenant, checkout: { id: string; session: string }, number: string) {
  const token = await tokenize(t, tenant, checkout, card(number).card);
  expect(token.status).toBe(200);
  return t.http
    .post(tenant.path(`/checkouts/${checkout.id}/confirm`))
    .set(asSession(checkout.session))
    .send({ payment_method_type: 'card', token: token.body.id });
}

/** A new customer with a card saved through a setup checkout: the customer and the payment method. */
export async function customerWithCard(t: TestApp, tenant: Tenant, number = SAVED_CARDS.succeeds) {
  const customer = await createCustomer(t, tenant);
  const checkout = await setupCheckout(t, tenant, customer.id);
  const saved = await saveCard(t, tenant, checkout, number);
  expect({ status: saved.status, body: saved.body }).toMatchObject({ status: 200 });
  return { customer, paymentMethod: saved.body.payment_method as { id: string }, checkout };
}

/** `POST /payment_intents` charging a saved card off-session. */
export function chargeOffSession(t: TestApp, tenant: Tenant, customerId: string, paymentMethod: string, body = {}) {
  return t.http
    .post(tenant.path('/payment_intents'))
    .set(tenant.as('test'))
    .send({
      amount: 125000,
      currency: 'THB',
      customer_id: customerId,
      payment_method: paymentMethod,
      off_session: true,
      confirm: true,
      ...body,
    });
}
