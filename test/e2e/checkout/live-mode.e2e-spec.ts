import { ProviderAdapters } from '../../../src/providers/provider-adapters.js';
import { createTenant, expectErrorObject, startApp, type Tenant, type TestApp } from '../../support/harness.js';
import { CARDS, card, confirm, createCheckout, createPaymentIntent } from '../../factories/checkout.js';
import { ownAccount } from '../../factories/payouts.js';
import { loadAppConfig } from '../../../src/config/app.config.js';
import { CollectionProviders } from '../../../src/modules/checkout/payments/providers/collection-providers.js';
import { TransferProviders } from '../../../src/modules/payouts/providers/transfer-providers.js';
import { BillingProviders } from '../../../src/modules/meter/providers/billing-provider.js';

/**
 * Issue 15 item 1: no sandbox in live mode. `bare` is a fresh deployment (no *_PROVIDERS_LIVE):
 * every live request that needs a provider is E5003 before anything is written. `served` shares
 * the database and serves live mode through `live-double` (a provider other than the sandbox).
 */
describe('live mode never uses the sandbox', () => {
  let bare: TestApp;
  let served: TestApp;
  let tenant: Tenant;

  beforeAll(async () => {
    bare = await startApp({ rateLimit: false });
    served = await startApp({ rateLimit: false, liveDoubles: true });
    tenant = await createTenant(served);
  });
  afterAll(async () => {
    await bare.close();
    await served.close();
  });

  const count = async (path: string) => {
    const res = await served.http.get(tenant.path(`${path}?limit=100`)).set(tenant.as('live'));
    // With the body, so a refusal says which error it was.
    expect({ status: res.status, body: res.status === 200 ? null : res.body }).toEqual({ status: 200, body: null });
    return (res.body.data as unknown[]).length;
  };

  it('refuses a live payment intent, checkout and card payment with E5003 and stores nothing', async () => {
    const before = { pis: await count('/payment_intents'), checkouts: await count('/checkouts') };
    const pi = await bare.http
      .post(tenant.path('/payment_intents'))
      .set(tenant.as('live'))
      .send({ amount: 125000, currency: 'THB' });
    expect(pi.status).toBe(503);
    expectErrorObject(pi.body, 'E5003');
    expect(pi.body.message).toBe('No live collection provider configured for TH (COLLECTION_PROVIDERS_LIVE).');

    // A live payment intent made where live mode is served, then a checkout and the sandbox card on the bare service.
    const live = await createPaymentIntent(served, tenant, {}, 'live');
    const refusedCheckout = await bare.http
      .post(tenant.path('/checkouts'))
      .set(tenant.as('live'))
      .send({ target_type: 'payment_intent', target_id: live.id });
    expect(refusedCheckout.status).toBe(503);
    expectErrorObject(refusedCheckout.body, 'E5003');
    expect(await count('/checkouts')).toBe(before.checkouts);

    const checkout = await createCheckout(
      served,
      tenant,
      { target_type: 'payment_intent', target_id: live.id },
      'live',
    );
    const paid = await confirm(bare, tenant, checkout, card(CARDS.visa));
    expect(paid.status).toBe(503);
    expectErrorObject(paid.body, 'E5003');
    expect(paid.body.message).toContain('No live collection provider configured for TH');
    expect(await count('/charges')).toBe(0);
    const after = await served.http.get(tenant.path(`/checkouts/${checkout.id}`)).set(tenant.as('live'));
    expect(after.body).toMatchObject({ status: 'open', payment_status: 'unpaid' });
    expect(await count('/payment_intents')).toBe(before.pis + 1);
  });

  it('a live payment in a country with a configured live provider goes to that provider', async () => {
    const pi = await createPaymentIntent(served, tenant, {}, 'live');
    const checkout = await createCheckout(served, tenant, { target_type: 'payment_intent', target_id: pi.id }, 'live');
    const paid = await confirm(served, tenant, checkout, card(CARDS.visa));
    expect(paid.status).toBe(200);
    expect(paid.body.charge).toMatchObject({ status: 'succeeded', livemode: true });
    const charge = await served.http.get(tenant.path(`/charges/${paid.body.charge.id}`)).set(tenant.as('live'));
    expect(charge.body.provider ?? 'live-double').toBe('live-double');
  });

  it('refuses a live bank account (payout destination) of the own account with E5003 and stores nothing', async () => {
    const own = await ownAccount(served, tenant, 'live');
    const before = await count('/bank_accounts');
    const res = await bare.http.post(tenant.path('/bank_accounts')).set(tenant.as('live')).send({
      account: own,
      type: 'promptpay_phone',
      account_holder_name: 'Somchai Jaidee',
      phone_number: '+66812345678',
    });
    expect(res.status).toBe(503);
    expectErrorObject(res.body, 'E5003');
    expect(res.body.message).toBe('No live transfer provider configured for TH (TRANSFER_PROVIDERS_LIVE).');
    expect(await count('/bank_accounts')).toBe(before);
  });

  it('test mode keeps the sandbox on the bare service', async () => {
    const pi = await createPaymentIntent(bare, tenant);
    const checkout = await createCheckout(bare, tenant, { target_type: 'payment_intent', target_id: pi.id });
    const paid = await confirm(bare, tenant, checkout, card(CARDS.visa));
    expect(paid.body.charge).toMatchObject({ status: 'succeeded', livemode: false });
  });

  it('the live hosted page shows no test card and no test helper', async () => {
    const pi = await createPaymentIntent(served, tenant, { payment_method_types: ['card', 'promptpay'] }, 'live');
    const checkout = await createCheckout(served, tenant, { target_type: 'payment_intent', target_id: pi.id }, 'live');
    const page = await served.http.get(new URL(checkout.url as string).pathname);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('4242');
    expect(page.text).not.toContain('test_helpers');
    expect(page.text).not.toContain('promptpay-simulate');
  });

  it('fails at boot when a live map names the sandbox, or names an unknown provider', () => {
    const boot = (env: Record<string, string>) => {
      const app = loadAppConfig(env);
      const config = { get: (key: string) => app[key.slice('app.'.length) as keyof typeof app] };
      const sandbox = { name: 'sandbox', testOnly: true };
      const adapters = new ProviderAdapters(config as never);
      const context = { optionalLivemode: undefined } as never;
      new CollectionProviders(config as never, sandbox as never, adapters, context);
      new TransferProviders(config as never, sandbox as never, adapters, context);
      new BillingProviders(config as never, sandbox as never);
    };
    expect(() => boot({})).not.toThrow();
    expect(() => boot({ COLLECTION_PROVIDERS_LIVE: 'TH=sandbox' })).toThrow(
      'COLLECTION_PROVIDERS_LIVE names "sandbox" for TH: "sandbox" serves test mode only, live mode never uses a sandbox',
    );
    expect(() => boot({ TRANSFER_PROVIDERS_LIVE: '*=sandbox' })).toThrow('live mode never uses a sandbox');
    expect(() => boot({ BILLING_PROVIDERS_LIVE: 'TH=paypal' })).toThrow(
      'BILLING_PROVIDERS_LIVE names an unknown billing provider "paypal" (for TH)',
    );
  });
});
