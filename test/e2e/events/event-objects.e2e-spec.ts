import { CARDS, card, confirm, createCustomer, paymentIntentCheckout } from '../../factories/checkout.js';
import { createTenant, startApp, type Tenant, type TestApp } from '../../support/harness.js';

/**
 * An event's data.object is the resource exactly as GET answers it right after the change,
 * embedded records included (a charge's customer, payment method and balance), not nulls.
 */
describe('event data.object equals the API resource', () => {
  let t: TestApp;
  let tenant: Tenant;

  beforeAll(async () => {
    t = await startApp({ rateLimit: false });
    tenant = await createTenant(t);
  });
  afterAll(() => t.close());

  const get = (path: string) => t.http.get(tenant.path(path)).set(tenant.as('test'));
  const eventOf = async (type: string) => {
    const res = await get(`/events?filter[type]=${type}&limit=1`);
    expect(res.status).toBe(200);
    return res.body.data[0] as { data: { object: Record<string, unknown> } };
  };

  it('charge.succeeded, payment_intent.succeeded and checkout.completed carry what GET returns', async () => {
    t.clock.freeze();
    try {
      const customer = await createCustomer(t, tenant);
      const { pi, checkout } = await paymentIntentCheckout(t, tenant, { amount: 31000, customer_id: customer.id });
      expect((await confirm(t, tenant, checkout, card(CARDS.visa))).status).toBe(200);

      const charged = (await eventOf('charge.succeeded')).data.object;
      const charge = (await get(`/charges/${charged.id as string}`)).body;
      expect(charge.customer).toMatchObject({ id: customer.id });
      expect(charge.payment_method).toMatchObject({ type: 'card', last4: '4242' });
      expect(charge.balance).toMatchObject({ object: 'balance' });
      expect(charged).toEqual(charge);

      const intent = (await eventOf('payment_intent.succeeded')).data.object;
      expect(intent).toEqual((await get(`/payment_intents/${pi.id}`)).body);
      const completed = (await eventOf('checkout.completed')).data.object;
      expect(completed).toEqual((await get(`/checkouts/${checkout.id}`)).body);
    } finally {
      t.clock.reset();
    }
  });

  it('charge.dispute.created carries the dispute with its charge as GET /disputes/{id} does', async () => {
    const { checkout } = await paymentIntentCheckout(t, tenant, { amount: 12000 });
    expect((await confirm(t, tenant, checkout, card(CARDS.disputed))).status).toBe(200);
    const disputed = (await eventOf('charge.dispute.created')).data.object;
    const dispute = (await get(`/disputes/${disputed.id as string}`)).body;
    expect(dispute.charge).toMatchObject({ payment_method: { type: 'card' }, balance: { object: 'balance' } });
    expect(disputed).toEqual(dispute);
  });
});
