import { CARDS, card, confirm, paymentIntentCheckout } from '../../factories/checkout.js';
import { connectedAccount, ownAccount } from '../../factories/payouts.js';
import { createTenant, startApp, type Tenant, type TestApp } from '../../support/harness.js';

/** Each state change records its event, in the same transaction, with the resource as the API returns it. */
describe('event types', () => {
  let t: TestApp;

  const events = async (tenant: Tenant, type: string) => {
    const res = await t.http.get(tenant.path('/events')).query({ 'filter[type]': type }).set(tenant.as('test'));
    expect(res.status).toBe(200);
    return res.body.data as Array<{ type: string; data: { object: Record<string, unknown> } }>;
  };

  beforeAll(async () => {
    t = await startApp({ rateLimit: false });
  });
  afterAll(() => t.close());

  it('records charge.failed and payment_intent.payment_failed for a declined card', async () => {
    const tenant = await createTenant(t);
    const { pi, checkout } = await paymentIntentCheckout(t, tenant, { amount: 5000 });
    expect((await confirm(t, tenant, checkout, card(CARDS.declined))).status).toBe(200);
    const [failed] = await events(tenant, 'charge.failed');
    expect(failed.data.object).toMatchObject({ object: 'charge', status: 'failed', payment_intent: pi.id });
    const [intent] = await events(tenant, 'payment_intent.payment_failed');
    expect(intent.data.object).toMatchObject({ id: pi.id, status: 'requires_payment_method' });
    const retrieved = await t.http.get(tenant.path(`/payment_intents/${pi.id}`)).set(tenant.as('test'));
    expect(intent.data.object).toEqual(retrieved.body);
  });

  it('records charge.dispute.created when the sandbox cardholder disputes', async () => {
    const tenant = await createTenant(t);
    const { checkout } = await paymentIntentCheckout(t, tenant, { amount: 5000 });
    expect((await confirm(t, tenant, checkout, card(CARDS.disputed))).status).toBe(200);
    const [dispute] = await events(tenant, 'charge.dispute.created');
    expect(dispute.data.object).toMatchObject({ object: 'dispute', status: 'needs_response', amount: 5000 });
    expect(dispute.data.object.charge).toMatchObject({ object: 'charge', disputed: true });
  });

  it('records checkout.expired, with the page URL, when a checkout expires', async () => {
    const tenant = await createTenant(t);
    const { checkout } = await paymentIntentCheckout(t, tenant, { amount: 5000 });
    const expired = await t.http
      .post(tenant.path(`/test_helpers/checkouts/${checkout.id}/expire`))
      .set(tenant.as('test'));
    expect(expired.status).toBe(200);
    const [event] = await events(tenant, 'checkout.expired');
    expect(event.data.object).toEqual(expired.body);
  });

  it('records balance.available when held funds are released', async () => {
    const tenant = await createTenant(t);
    const { checkout } = await paymentIntentCheckout(t, tenant, { amount: 5000 });
    expect((await confirm(t, tenant, checkout, card(CARDS.visa))).status).toBe(200);
    const released = await t.http.post(tenant.path('/test_helpers/holds/release')).set(tenant.as('test'));
    expect(released.status).toBe(200);
    const available = await events(tenant, 'balance.available');
    expect(available.length).toBeGreaterThan(0);
    expect(available[0].data.object).toMatchObject({ object: 'balance' });
  });

  it('records account.updated when KYB is decided and bank_account.created when a bank account is added', async () => {
    const tenant = await createTenant(t);
    const id = await connectedAccount(t, tenant, 'verified');
    const [updated] = await events(tenant, 'account.updated');
    expect(updated).toMatchObject({
      data: { object: { id, kyb_status: 'verified' }, previous_attributes: { kyb_status: 'pending' } },
    });
    const bank = await t.http
      .post(tenant.path('/bank_accounts'))
      .set(tenant.as('test'))
      .send({
        account: await ownAccount(t, tenant),
        type: 'promptpay_phone',
        account_holder_name: 'Somchai Jaidee',
        phone_number: '+66812345678',
      });
    expect(bank.status).toBe(200);
    const [created] = await events(tenant, 'bank_account.created');
    expect(created.data.object).toMatchObject({ id: bank.body.id, object: 'bank_account' });
    expect(JSON.stringify(created)).not.toContain('812345678');
  });
});
