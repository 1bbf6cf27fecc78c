import Stripe from 'stripe';
import { CollectionProviders } from '../../../src/modules/checkout/payments/providers/collection-providers.js';
import { ProviderReconciliationJob } from '../../../src/modules/provider-events/index.js';
import { OpnCollectionProvider } from '../../../src/providers/opn/index.js';
import { StripeCollectionProvider } from '../../../src/providers/stripe/index.js';
import { confirm, paymentIntentCheckout } from '../../factories/checkout.js';
import { fakeOpn, opnFixture, fakeStripe, stripeFixture, type FakeProvider } from '../../support/fake-provider.js';
import { createTenant, expectErrorObject, startApp, type Tenant, type TestApp } from '../../support/harness.js';

/**
 * Issue 15: live mode served by the real adapters against the fake Opn and Stripe servers on
 * loopback (OPN_BASE_URL, STRIPE_API_HOST/PORT/PROTOCOL), and their webhooks received by the
 * service: a PromptPay charge pending, then paid by the provider's notice, applied once; a replay
 * changes nothing; a forged one is 400 and changes nothing; a lost one is applied by the
 * reconciliation job once the clock has moved past PROVIDER_RECONCILE_AFTER_MINUTES.
 */
const OPN_LIVE = { secret: 'skey_5fakeopnlivesecret000', public: 'pkey_5fakeopnlivepublic000' };
const STRIPE_LIVE = {
  secret: 'sk_live_51FakeStripeLiveSecret0000',
  publishable: 'pk_live_51FakeStripeLivePublic0000',
  webhook: 'whsec_fakeStripeLiveWebhookSecret000',
};

describe('provider webhooks and live adapters (fake Opn and Stripe on loopback)', () => {
  let opn: FakeProvider;
  let stripe: FakeProvider;
  let opnApp: TestApp;
  let stripeApp: TestApp;
  let tenant: Tenant;
  let n = 0;
  const unique = () => `${Date.now().toString(36)}${(n += 1)}`.replace(/[^0-9a-z]/g, '');
  const sdk = new Stripe('sk_test_unused', { telemetry: false });

  const env = (collection: string) => ({
    COLLECTION_PROVIDERS_LIVE: collection,
    OPN_SECRET_KEY_LIVE: OPN_LIVE.secret,
    OPN_PUBLIC_KEY_LIVE: OPN_LIVE.public,
    OPN_BASE_URL: opn.baseUrl,
    STRIPE_SECRET_KEY_LIVE: STRIPE_LIVE.secret,
    STRIPE_PUBLISHABLE_KEY_LIVE: STRIPE_LIVE.publishable,
    STRIPE_WEBHOOK_SECRET_LIVE: STRIPE_LIVE.webhook,
    STRIPE_API_HOST: '127.0.0.1',
    STRIPE_API_PORT: String(stripe.port),
    STRIPE_API_PROTOCOL: 'http',
    PROVIDER_RECONCILE_AFTER_MINUTES: '5',
  });

  beforeAll(async () => {
    opn = await fakeOpn(OPN_LIVE.secret).start();
    stripe = await fakeStripe(STRIPE_LIVE.secret).start();
    opnApp = await startApp({ rateLimit: false, env: env('TH=opn,SG=stripe') });
    stripeApp = await startApp({ rateLimit: false, env: env('TH=stripe') });
    tenant = await createTenant(opnApp);
  });
  afterAll(async () => {
    await opnApp?.close();
    await stripeApp?.close();
    await opn?.stop();
    await stripe?.stop();
  });

  const get = async (t: TestApp, path: string) => {
    const res = await t.http.get(tenant.path(path)).set(tenant.as('live'));
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  /** The live events of `type` about object `id`. */
  const eventsAbout = async (t: TestApp, type: string, id: string) => {
    const page = await get(t, `/events?filter[type]=${type}&limit=100`);
    return (page.data as Array<{ data: { object: { id: string } } }>).filter((e) => e.data.object.id === id);
  };

  /** Opn's paid PromptPay charge `id` (live), as GET /charges/{id} and the event's data answer it. */
  const opnPaid = (id: string) => ({ ...opnFixture('charge_promptpay_paid'), id, livemode: true });
  const opnEvent = (id: string, data: object) => ({
    ...opnFixture('event_charge_complete'),
    id,
    livemode: true,
    data,
  });

  /** A live PromptPay checkout confirmed at the fake Opn: its charge is pending with Opn's reference. */
  async function pendingOpnCharge() {
    const reference = `chrg_5live${unique()}`;
    opn.on('POST /charges', {
      status: 200,
      fixture: 'charge_promptpay_pending',
      patch: { id: reference, livemode: true },
    });
    const { pi, checkout } = await paymentIntentCheckout(opnApp, tenant, {}, 'live');
    const res = await confirm(opnApp, tenant, checkout, { payment_method_type: 'promptpay' });
    expect({ status: res.status, body: res.body }).toMatchObject({ status: 200 });
    expect(res.body.charge).toMatchObject({
      status: 'pending',
      livemode: true,
      provider: 'opn',
      reference_id: reference,
    });
    return { pi, checkout, charge: res.body.charge as { id: string }, reference };
  }

  it('serves live mode by the configured provider: opn in TH, stripe in SG (their live adapters), none elsewhere', () => {
    const registry = opnApp.app.get(CollectionProviders);
    expect(registry.forCountry('TH', true)).toBeInstanceOf(OpnCollectionProvider);
    expect(registry.forCountry('SG', true)).toBeInstanceOf(StripeCollectionProvider);
    expect(() => registry.forCountry('MY', true)).toThrow('No live collection provider configured for MY');
    // Test mode keeps the sandbox, and Opn has no test keys here.
    expect(registry.forCountry('TH', false).name).toBe('sandbox');
    expect(() => registry.named('opn', false)).toThrow('no collection provider named "opn"');
  });

  it('Opn: a live PromptPay checkout creates the charge at Opn; paid by webhook once; replay and forgery change nothing', async () => {
    const { pi, checkout, charge, reference } = await pendingOpnCharge();
    const created = opn.last('POST /charges');
    expect(created.form).toMatchObject({
      amount: '125000',
      currency: 'thb',
      'source[type]': 'promptpay',
      'metadata[charge_id]': charge.id,
    });
    expect(created.headers['idempotency-key']).toBe(`charge:${charge.id}`);

    // Opn marks the charge paid and posts charge.complete; the service believes only GET /events/{id}.
    const event = `evnt_5live${unique()}`;
    opn.on(`GET /events/${event}`, { status: 200, json: opnEvent(event, opnPaid(reference)) });
    const hook = await opnApp.http
      .post('/provider_webhooks/opn')
      .send({ object: 'event', id: event, key: 'charge.complete', data: { id: 'chrg_lies', status: 'failed' } });
    expect({ status: hook.status, body: hook.body }).toEqual({
      status: 200,
      body: {
        object: 'provider_event',
        provider: 'opn',
        id: event,
        kind: 'charge.complete',
        livemode: true,
        result: 'applied',
      },
    });
    const paid = await get(opnApp, `/charges/${charge.id}`);
    expect(paid).toMatchObject({ status: 'succeeded', paid: true, reference_id: reference, livemode: true });
    expect(await get(opnApp, `/checkouts/${checkout.id}`)).toMatchObject({
      status: 'complete',
      payment_status: 'paid',
    });
    expect(await get(opnApp, `/payment_intents/${pi.id}`)).toMatchObject({ status: 'succeeded' });
    expect(await eventsAbout(opnApp, 'charge.succeeded', charge.id)).toHaveLength(1);

    // Replayed: verified again, applied never again.
    const replay = await opnApp.http.post('/provider_webhooks/opn').send({ object: 'event', id: event });
    expect(replay.status).toBe(200);
    expect(replay.body.result).toBe('duplicate');
    expect(await get(opnApp, `/charges/${charge.id}`)).toEqual(paid);
    expect(await eventsAbout(opnApp, 'charge.succeeded', charge.id)).toHaveLength(1);
    expect(await eventsAbout(opnApp, 'checkout.completed', checkout.id)).toHaveLength(1);
    expect(opn.requests.filter((r) => r.path === `/events/${event}`)).toHaveLength(2);
  });

  it('Opn: a forged webhook (an id Opn does not know, or no event) is 400 E5201; Opn unreachable is 503 E5202; nothing changes', async () => {
    const { checkout, charge } = await pendingOpnCharge();
    const forged = await opnApp.http
      .post('/provider_webhooks/opn')
      .send({ object: 'event', id: `evnt_5forged${unique()}`, key: 'charge.complete' });
    expect(forged.status).toBe(400);
    expectErrorObject(forged.body, 'E5201');
    const notEvent = await opnApp.http.post('/provider_webhooks/opn').send({ id: 42 });
    expect(notEvent.status).toBe(400);
    expectErrorObject(notEvent.body, 'E5201');
    // A test-mode event id: this service has no Opn test keys.
    const testMode = await opnApp.http.post('/provider_webhooks/opn').send({ object: 'event', id: 'evnt_test_5abc' });
    expect(testMode.status).toBe(404);
    expectErrorObject(testMode.body, 'E5203');

    const down = `evnt_5down${unique()}`;
    opn.on(`GET /events/${down}`, { status: 503, text: 'Service Unavailable' });
    const unverifiable = await opnApp.http.post('/provider_webhooks/opn').send({ object: 'event', id: down });
    expect(unverifiable.status).toBe(503);
    expectErrorObject(unverifiable.body, 'E5202');

    expect(await get(opnApp, `/charges/${charge.id}`)).toMatchObject({ status: 'pending' });
    expect(await get(opnApp, `/checkouts/${checkout.id}`)).toMatchObject({ status: 'open', payment_status: 'unpaid' });
  });

  it('POST /provider_webhooks/{provider} serves every plugged provider; any other name is an unknown route (404 E4040)', async () => {
    const unknown = await opnApp.http.post('/provider_webhooks/acme').send({ object: 'event', id: 'evt_acme' });
    expect(unknown.status).toBe(404);
    expectErrorObject(unknown.body, 'E4040');
  });

  it('Opn: a charge that failed at Opn fails the attempt and the payment intent, once', async () => {
    const { pi, checkout, charge, reference } = await pendingOpnCharge();
    const failed = { ...opnFixture('charge_declined'), id: reference, livemode: true };
    opn.on(`GET /charges/${reference}`, { status: 200, json: failed });
    const event = `evnt_5fail${unique()}`;
    opn.on(`GET /events/${event}`, { status: 200, json: opnEvent(event, failed) });
    const hook = await opnApp.http.post('/provider_webhooks/opn').send({ object: 'event', id: event });
    expect(hook.body).toMatchObject({ result: 'applied' });
    expect(await get(opnApp, `/charges/${charge.id}`)).toMatchObject({
      status: 'failed',
      failure_code: 'card_declined',
    });
    expect(await get(opnApp, `/checkouts/${checkout.id}`)).toMatchObject({ status: 'open', payment_status: 'unpaid' });
    expect(await get(opnApp, `/payment_intents/${pi.id}`)).toMatchObject({ status: 'requires_payment_method' });
    const again = await opnApp.http.post('/provider_webhooks/opn').send({ object: 'event', id: event });
    expect(again.body).toMatchObject({ result: 'duplicate' });
    expect(await eventsAbout(opnApp, 'charge.failed', charge.id)).toHaveLength(1);
  });

  it('a lost webhook: the reconciliation job reads the pending charge back once the clock passes the delay', async () => {
    const { checkout, charge, reference } = await pendingOpnCharge();
    opn.on(`GET /charges/${reference}`, { status: 200, json: opnPaid(reference) });
    const job = opnApp.app.get(ProviderReconciliationJob);
    await job.run({ applicationIds: [tenant.applicationId], modes: ['live'] });
    expect(await get(opnApp, `/charges/${charge.id}`)).toMatchObject({ status: 'pending' });

    opnApp.clock.advance(6 * 60_000);
    const run = await job.run({ applicationIds: [tenant.applicationId], modes: ['live'] });
    expect(run.charges_applied).toBeGreaterThanOrEqual(1);
    expect(opn.last(`GET /charges/${reference}`)).toBeTruthy();
    expect(await get(opnApp, `/charges/${charge.id}`)).toMatchObject({ status: 'succeeded', paid: true });
    expect(await get(opnApp, `/checkouts/${checkout.id}`)).toMatchObject({ status: 'complete' });

    // The webhook arriving late finds the charge final: no second success.
    const event = `evnt_5late${unique()}`;
    opn.on(`GET /events/${event}`, { status: 200, json: opnEvent(event, opnPaid(reference)) });
    const late = await opnApp.http.post('/provider_webhooks/opn').send({ object: 'event', id: event });
    expect(late.body).toMatchObject({ result: 'unchanged' });
    expect(await eventsAbout(opnApp, 'charge.succeeded', charge.id)).toHaveLength(1);
    await job.run({ applicationIds: [tenant.applicationId], modes: ['live'] });
    expect(await eventsAbout(opnApp, 'charge.succeeded', charge.id)).toHaveLength(1);
  });

  it('Opn: a pending partial refund succeeds by refund webhook once; replay changes nothing', async () => {
    const { charge, reference } = await pendingOpnCharge();
    const paidEvent = `evnt_5rpay${unique()}`;
    opn.on(`GET /events/${paidEvent}`, { status: 200, json: opnEvent(paidEvent, opnPaid(reference)) });
    expect(
      (await opnApp.http.post('/provider_webhooks/opn').send({ object: 'event', id: paidEvent })).body,
    ).toMatchObject({ result: 'applied' });

    const refundId = `rfnd_5live${unique()}`;
    const refundAt = (status: string | undefined) => ({
      ...opnFixture('refund_partial'),
      id: refundId,
      charge: reference,
      amount: 50000,
      livemode: true,
      status,
    });
    opn.on(`POST /charges/${reference}/refunds`, { status: 200, json: refundAt('pending') });
    const created = await opnApp.http
      .post(tenant.path('/refunds'))
      .set(tenant.as('live'))
      .send({ charge_id: charge.id, amount: 50000 });
    expect({ status: created.status, body: created.body }).toMatchObject({
      status: 200,
      body: { status: 'pending', reference_id: `${reference}/${refundId}` },
    });
    expect(opn.last(`POST /charges/${reference}/refunds`).form).toMatchObject({ amount: '50000' });

    const event = `evnt_5rfnd${unique()}`;
    opn.on(`GET /events/${event}`, {
      status: 200,
      json: {
        ...opnFixture('event_charge_complete'),
        id: event,
        key: 'refund.create',
        livemode: true,
        data: refundAt('closed'),
      },
    });
    const hook = await opnApp.http.post('/provider_webhooks/opn').send({ object: 'event', id: event });
    expect(hook.body).toMatchObject({ kind: 'refund.create', result: 'applied' });
    const refund = await get(opnApp, `/refunds/${created.body.id}`);
    expect(refund).toMatchObject({ status: 'succeeded' });
    const replay = await opnApp.http.post('/provider_webhooks/opn').send({ object: 'event', id: event });
    expect(replay.body).toMatchObject({ result: 'duplicate' });
    expect(await get(opnApp, `/refunds/${created.body.id}`)).toEqual(refund);
    expect(await eventsAbout(opnApp, 'refund.succeeded', created.body.id)).toHaveLength(1);
  });

  describe('Stripe', () => {
    const sign = (payload: string, secret = STRIPE_LIVE.webhook) =>
      sdk.webhooks.generateTestHeaderString({ payload, secret });
    const intent = (fixture: string, id: string) => ({ ...stripeFixture(fixture), id, livemode: true });
    const eventPayload = (id: string, object: object, type = 'payment_intent.succeeded') =>
      JSON.stringify({
        ...stripeFixture('event_payment_intent_succeeded'),
        id,
        type,
        livemode: true,
        data: { object },
      });
    const post = (payload: string, signature: string) =>
      stripeApp.http
        .post('/provider_webhooks/stripe')
        .set('Content-Type', 'application/json')
        .set('Stripe-Signature', signature)
        .send(payload);

    it('a live PromptPay checkout goes to Stripe; paid by a signed webhook once; replayed, forged and tampered change nothing', async () => {
      const reference = `pi_3Live${unique()}`;
      stripe.on('POST /v1/payment_intents', {
        status: 200,
        json: intent('payment_intent_promptpay_pending', reference),
      });
      const { pi, checkout } = await paymentIntentCheckout(stripeApp, tenant, {}, 'live');
      const res = await confirm(stripeApp, tenant, checkout, { payment_method_type: 'promptpay' });
      expect({ status: res.status, body: res.body }).toMatchObject({ status: 200 });
      const charge = res.body.charge as { id: string };
      expect(res.body.charge).toMatchObject({ status: 'pending', provider: 'stripe', reference_id: reference });
      expect(stripe.last('POST /v1/payment_intents').headers['idempotency-key']).toBe(`charge:${charge.id}`);

      const event = `evt_live${unique()}`;
      const payload = eventPayload(event, intent('payment_intent_promptpay_succeeded', reference));
      const hook = await post(payload, sign(payload));
      expect({ status: hook.status, body: hook.body }).toEqual({
        status: 200,
        body: {
          object: 'provider_event',
          provider: 'stripe',
          id: event,
          kind: 'payment_intent.succeeded',
          livemode: true,
          result: 'applied',
        },
      });
      const paid = await get(stripeApp, `/charges/${charge.id}`);
      expect(paid).toMatchObject({ status: 'succeeded', paid: true });
      expect(await get(stripeApp, `/payment_intents/${pi.id}`)).toMatchObject({ status: 'succeeded' });
      expect(await get(stripeApp, `/checkouts/${checkout.id}`)).toMatchObject({ status: 'complete' });

      const replay = await post(payload, sign(payload));
      expect(replay.status).toBe(200);
      expect(replay.body.result).toBe('duplicate');
      expect(await get(stripeApp, `/charges/${charge.id}`)).toEqual(paid);
      expect(await eventsAbout(stripeApp, 'charge.succeeded', charge.id)).toHaveLength(1);

      const other = await post(payload, sign(payload, 'whsec_someoneElsesSecret0000'));
      expect(other.status).toBe(400);
      expectErrorObject(other.body, 'E5201');
      const tampered = await post(payload.replace('"succeeded"', '"canceled"'), sign(payload));
      expect(tampered.status).toBe(400);
      expectErrorObject(tampered.body, 'E5201');
      const unsigned = await stripeApp.http
        .post('/provider_webhooks/stripe')
        .set('Content-Type', 'application/json')
        .send(payload);
      expect(unsigned.status).toBe(400);
      expectErrorObject(unsigned.body, 'E5201');
      // Test mode has no Stripe keys here.
      const testPayload = JSON.stringify({ ...JSON.parse(payload), livemode: false });
      const testMode = await post(testPayload, sign(testPayload));
      expect(testMode.status).toBe(404);
      expectErrorObject(testMode.body, 'E5203');
      expect(await eventsAbout(stripeApp, 'charge.succeeded', charge.id)).toHaveLength(1);
    });

    it('a forged event for a pending charge changes nothing; an event of an unknown object is answered unmatched', async () => {
      const reference = `pi_3Live${unique()}`;
      stripe.on('POST /v1/payment_intents', {
        status: 200,
        json: intent('payment_intent_promptpay_pending', reference),
      });
      const { checkout } = await paymentIntentCheckout(stripeApp, tenant, {}, 'live');
      const res = await confirm(stripeApp, tenant, checkout, { payment_method_type: 'promptpay' });
      const charge = res.body.charge as { id: string };
      const payload = eventPayload(`evt_live${unique()}`, intent('payment_intent_promptpay_succeeded', reference));
      const forged = await post(payload, sign(payload, 'whsec_forgedSecret000000'));
      expect(forged.status).toBe(400);
      expectErrorObject(forged.body, 'E5201');
      expect(await get(stripeApp, `/charges/${charge.id}`)).toMatchObject({ status: 'pending' });

      const stranger = eventPayload(
        `evt_live${unique()}`,
        intent('payment_intent_promptpay_succeeded', 'pi_3Unknown0'),
      );
      const unmatched = await post(stranger, sign(stranger));
      expect(unmatched.status).toBe(200);
      expect(unmatched.body.result).toBe('unmatched');
    });
  });
});
