import Stripe from 'stripe';
import { ProviderReconciliationJob } from '../../../src/modules/provider-events/index.js';
import { confirm, paymentIntentCheckout } from '../../factories/checkout.js';
import {
  fakeOpn,
  fakeStripe,
  multipartParts,
  opnFixture,
  stripeFixture,
  type FakeProvider,
} from '../../support/fake-provider.js';
import { createTenant, expectErrorObject, startApp, type Tenant, type TestApp } from '../../support/harness.js';
import { expectLedgerInvariants } from '../../support/ledger-invariants.js';

/**
 * Issue 36, items 1 and 3: live disputes reported by the fake Opn and Stripe servers (their own
 * API shapes, from omise-node's mocks and stripe/openapi's fixtures) through their webhooks and the
 * reconciliation job, with their ledger entries booked once however often a webhook is replayed,
 * and evidence (text and two files) forwarded to them byte for byte.
 */
const OPN_LIVE = { secret: 'skey_5fakeopnlivesecret000', public: 'pkey_5fakeopnlivepublic000' };
const STRIPE_LIVE = {
  secret: 'sk_live_51FakeStripeLiveSecret0000',
  publishable: 'pk_live_51FakeStripeLivePublic0000',
  webhook: 'whsec_fakeStripeLiveWebhookSecret000',
};
const DAY = 24 * 3600 * 1000;
/** A one-page PDF and a 1×1 PNG: the evidence files. */
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n', 'latin1');
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** Ledger rows `[amount, account, category]` in one order, so two lists compare whatever their order. */
const sorted = (rows: unknown[][]) => rows.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

/** An Opn dispute lost: the withdrawal, the loss to the provider and Opn's THB 500.00 fee, booked once. */
const OPN_LOST_ENTRIES = sorted([
  [-125000, 'merchant', 'dispute'],
  [125000, 'disputes', 'dispute'],
  [-125000, 'disputes', 'dispute_loss'],
  [125000, 'provider_clearing', 'dispute_loss'],
  [-50000, 'merchant', 'dispute_fee'],
  [50000, 'fees', 'dispute_fee'],
]);

describe('live disputes from the providers (fake Opn and Stripe on loopback)', () => {
  let opn: FakeProvider;
  let stripe: FakeProvider;
  let opnApp: TestApp;
  let stripeApp: TestApp;
  let tenant: Tenant;
  /** Stripe's response deadline of every dispute here (seconds), 7 days after the start. */
  let dueBy = 0;
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
  });

  beforeAll(async () => {
    opn = await fakeOpn(OPN_LIVE.secret).start();
    stripe = await fakeStripe(STRIPE_LIVE.secret).start();
    opnApp = await startApp({ rateLimit: false, env: env('TH=opn') });
    stripeApp = await startApp({ rateLimit: false, env: env('TH=stripe') });
    tenant = await createTenant(opnApp);
    dueBy = Math.floor((stripeApp.clock.nowMs() + 7 * DAY) / 1000);
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
  const eventsAbout = async (t: TestApp, type: string, id: string) => {
    const page = await get(t, `/events?filter[type]=${type}&limit=100`);
    return (page.data as Array<{ data: { object: { id: string } } }>).filter((e) => e.data.object.id === id);
  };
  /** The dispute's ledger entries: [amount, account, category]. */
  const entries = async (t: TestApp, number: string) =>
    sorted(
      ((await get(t, `/balance_transactions?q=${number}&limit=100`)).data as Array<Record<string, unknown>>).map(
        (e) => [e.amount, e.account, e.category],
      ),
    );
  const disputeOf = async (t: TestApp, providerId: string) => {
    const page = await get(t, `/disputes?filter[provider_id]=${providerId}`);
    expect(page.data).toHaveLength(1);
    return page.data[0] as Record<string, unknown> & { id: string; number: string };
  };
  const upload = async (t: TestApp, bytes: Buffer, filename: string, purpose = 'dispute_evidence') => {
    const res = await t.http
      .post(tenant.path('/files'))
      .set(tenant.as('live'))
      .field('purpose', purpose)
      .attach('file', bytes, { filename, contentType: 'application/octet-stream' });
    expect({ status: res.status, body: res.body }).toMatchObject({ status: 200 });
    return res.body.id as string;
  };
  const submit = (t: TestApp, id: string, body: object) =>
    t.http
      .post(tenant.path(`/disputes/${id}`))
      .set(tenant.as('live'))
      .send({ submit: true, ...body });

  const opnHook = (id: string) => opnApp.http.post('/provider_webhooks/opn').send({ object: 'event', id });
  const stripeHook = (payload: string) =>
    stripeApp.http
      .post('/provider_webhooks/stripe')
      .set('Content-Type', 'application/json')
      .set('Stripe-Signature', sdk.webhooks.generateTestHeaderString({ payload, secret: STRIPE_LIVE.webhook }))
      .send(payload);
  const stripeEvent = (type: string, object: object) =>
    JSON.stringify({
      ...stripeFixture('event_payment_intent_succeeded'),
      id: `evt_live${unique()}`,
      type,
      livemode: true,
      data: { object },
    });

  /** A live PromptPay charge of 1,250.00 THB paid at Opn (its charge.complete webhook): its Opn reference. */
  /** Serves Opn's `GET /events/{id}` for a live event of `key` about `data`: what a webhook's event id is read back from. */
  const serveOpnEvent = (id: string, key: string, data: object) =>
    opn.on(`GET /events/${id}`, {
      status: 200,
      json: { ...opnFixture('event_charge_complete'), id, key, livemode: true, data },
    });

  async function paidOpnCharge() {
    const reference = `chrg_5live${unique()}`;
    opn.on('POST /charges', {
      status: 200,
      fixture: 'charge_promptpay_pending',
      patch: { id: reference, livemode: true },
    });
    const { checkout } = await paymentIntentCheckout(opnApp, tenant, {}, 'live');
    const res = await confirm(opnApp, tenant, checkout, { payment_method_type: 'promptpay' });
    expect(res.body.charge).toMatchObject({ status: 'pending', reference_id: reference });
    const event = `evnt_5pay${unique()}`;
    opn.on(`GET /events/${event}`, {
      status: 200,
      json: {
        ...opnFixture('event_charge_complete'),
        id: event,
        livemode: true,
        data: { ...opnFixture('charge_promptpay_paid'), id: reference, livemode: true },
      },
    });
    expect((await opnHook(event)).body).toMatchObject({ result: 'applied' });
    return { reference, chargeId: res.body.charge.id as string };
  }

  /** The same at Stripe (payment_intent.succeeded): its payment intent id. */
  async function paidStripeCharge() {
    const reference = `pi_3Live${unique()}`;
    const intent = (fixture: string) => ({ ...stripeFixture(fixture), id: reference, livemode: true });
    stripe.on('POST /v1/payment_intents', { status: 200, json: intent('payment_intent_promptpay_pending') });
    const { checkout } = await paymentIntentCheckout(stripeApp, tenant, {}, 'live');
    const res = await confirm(stripeApp, tenant, checkout, { payment_method_type: 'promptpay' });
    expect(res.body.charge).toMatchObject({ status: 'pending', reference_id: reference });
    const paid = await stripeHook(
      stripeEvent('payment_intent.succeeded', intent('payment_intent_promptpay_succeeded')),
    );
    expect(paid.body).toMatchObject({ result: 'applied' });
    return { reference, chargeId: res.body.charge.id as string };
  }

  const opnDispute = (id: string, charge: string, patch: object = {}) => ({
    ...opnFixture('dispute_open'),
    id,
    charge,
    amount: 125000,
    livemode: true,
    location: `/disputes/${id}`,
    created_at: new Date(dueBy * 1000 - 7 * DAY).toISOString(),
    ...patch,
  });
  const stripeDispute = (id: string, paymentIntent: string, patch: Record<string, unknown> = {}) => {
    const fixture = stripeFixture<Record<string, unknown>>('dispute_needs_response');
    const [withdrawal] = fixture.balance_transactions as Array<Record<string, unknown>>;
    return {
      ...fixture,
      id,
      payment_intent: paymentIntent,
      amount: 125000,
      livemode: true,
      created: dueBy - 7 * 24 * 3600,
      balance_transactions: [{ ...withdrawal, amount: -125000, net: -126500, source: id }],
      evidence_details: {
        ...(fixture.evidence_details as object),
        due_by: dueBy,
      },
      ...patch,
    };
  };

  it('Opn: dispute.create applies once after three replays; evidence with two files reaches Opn byte for byte; lost keeps the withdrawal and books the fee', async () => {
    const { reference, chargeId } = await paidOpnCharge();
    const disputeId = `dspt_5live${unique()}`;
    const event = `evnt_5dspt${unique()}`;
    serveOpnEvent(event, 'dispute.create', opnDispute(disputeId, reference));
    // Only the event id is read from the body: the rest is a lie Opn's GET /events/{id} does not repeat.
    const first = await opnApp.http
      .post('/provider_webhooks/opn')
      .send({ object: 'event', id: event, key: 'dispute.close', data: { status: 'won' } });
    expect(first.body).toMatchObject({ kind: 'dispute.create', result: 'applied' });
    for (let i = 0; i < 3; i += 1) expect((await opnHook(event)).body).toMatchObject({ result: 'duplicate' });

    const dispute = await disputeOf(opnApp, disputeId);
    expect(dispute).toMatchObject({
      status: 'needs_response',
      provider: 'opn',
      charge_id: chargeId,
      amount: 125000,
      currency: 'THB',
      reason: 'product_not_received',
      livemode: true,
      settled: false,
      evidence_details: { submission_count: 0, has_evidence: false },
    });
    expect((await get(opnApp, `/charges/${chargeId}`)) as object).toMatchObject({
      disputed: true,
      dispute_id: dispute.id,
      dispute_status: 'needs_response',
    });
    expect(await entries(opnApp, dispute.number)).toEqual(
      sorted([
        [-125000, 'merchant', 'dispute'],
        [125000, 'disputes', 'dispute'],
      ]),
    );
    expect(await eventsAbout(opnApp, 'charge.dispute.created', dispute.id)).toHaveLength(1);

    // Evidence: two files (a PDF and a PNG) and a text field, submitted.
    const receipt = await upload(opnApp, PDF, 'receipt.pdf');
    const chat = await upload(opnApp, PNG, 'chat.png');
    opn.on(`POST /disputes/${disputeId}/documents`, { status: 200, fixture: 'dispute_document' });
    opn.on(`PATCH /disputes/${disputeId}`, {
      status: 200,
      json: opnDispute(disputeId, reference, { status: 'pending', message: 'product_description: …' }),
    });
    const res = await submit(opnApp, dispute.id, {
      evidence: { receipt, customer_communication: chat, product_description: 'A year of cloud storage' },
    });
    expect({ status: res.status, body: res.body }).toMatchObject({
      status: 200,
      body: { status: 'under_review', evidence_details: { submission_count: 1, has_evidence: true } },
    });
    const uploads = opn.requests.filter((r) => r.path === `/disputes/${disputeId}/documents`);
    expect(uploads).toHaveLength(2);
    const sent = uploads.map((r) => multipartParts(r));
    expect(sent.map((parts) => parts.map((p) => [p.name, p.filename]))).toEqual([
      [['file', 'chat.png']],
      [['file', 'receipt.pdf']],
    ]);
    expect(sent[0][0].body.equals(PNG)).toBe(true);
    expect(sent[1][0].body.equals(PDF)).toBe(true);
    expect(opn.last(`PATCH /disputes/${disputeId}`).form.message).toBe('product_description: A year of cloud storage');

    // Opn decides: lost. The withdrawal stays with the cardholder; the fee (THB 500.00) is booked.
    const close = `evnt_5lost${unique()}`;
    serveOpnEvent(close, 'dispute.close', opnDispute(disputeId, reference, { status: 'lost', message: 'x' }));
    expect((await opnHook(close)).body).toMatchObject({ result: 'applied' });
    expect((await opnHook(close)).body).toMatchObject({ result: 'duplicate' });
    expect(await disputeOf(opnApp, disputeId)).toMatchObject({ status: 'lost', settled: true, reinstated: false });
    expect(await entries(opnApp, dispute.number)).toEqual(OPN_LOST_ENTRIES);
    expect(await eventsAbout(opnApp, 'charge.dispute.closed', dispute.id)).toHaveLength(1);
  });

  it('Stripe: charge.dispute.created books the withdrawal and Stripe’s fee once after three replays; evidence with two files reaches Stripe’s Files API byte for byte; won reinstates', async () => {
    const { reference } = await paidStripeCharge();
    const disputeId = `dp_live${unique()}`;
    const created = stripeEvent('charge.dispute.created', stripeDispute(disputeId, reference));
    expect((await stripeHook(created)).body).toMatchObject({ kind: 'charge.dispute.created', result: 'applied' });
    for (let i = 0; i < 3; i += 1) expect((await stripeHook(created)).body).toMatchObject({ result: 'duplicate' });
    // The same state told again by another event changes nothing.
    const withdrawn = stripeEvent('charge.dispute.funds_withdrawn', stripeDispute(disputeId, reference));
    expect((await stripeHook(withdrawn)).body).toMatchObject({ result: 'unchanged' });

    const dispute = await disputeOf(stripeApp, disputeId);
    expect(dispute).toMatchObject({ status: 'needs_response', provider: 'stripe', network_reason_code: '10.4' });
    const opened = [
      [-125000, 'merchant', 'dispute'],
      [125000, 'disputes', 'dispute'],
      [-1500, 'merchant', 'dispute_fee'],
      [1500, 'fees', 'dispute_fee'],
    ];
    expect(await entries(stripeApp, dispute.number)).toEqual(sorted([...opened]));

    // Two files of this application, uploaded to Stripe and named in one dispute update.
    const receipt = await upload(stripeApp, PDF, 'receipt.pdf');
    const chat = await upload(stripeApp, PNG, 'chat.png');
    const other = await upload(stripeApp, PNG, 'id.png', 'identity_document');
    const refused = await submit(stripeApp, dispute.id, { evidence: { receipt: other } });
    expect(refused.status).toBe(422);
    expectErrorObject(refused.body, 'E9508');

    stripe.on(
      'POST /v1/files',
      { status: 200, fixture: 'file_dispute_evidence', patch: { id: 'file_live_1' } },
      { status: 200, fixture: 'file_dispute_evidence', patch: { id: 'file_live_2' } },
    );
    stripe.on(`POST /v1/disputes/${disputeId}`, {
      status: 200,
      json: stripeDispute(disputeId, reference, {
        status: 'under_review',
        evidence_details: { due_by: null, has_evidence: true, past_due: false, submission_count: 1 },
      }),
    });
    const res = await submit(stripeApp, dispute.id, {
      evidence: { receipt, customer_communication: chat, customer_name: 'Somchai Jaidee' },
    });
    expect({ status: res.status, body: res.body }).toMatchObject({
      status: 200,
      body: { status: 'under_review', evidence_details: { submission_count: 1, has_evidence: true } },
    });
    const files = stripe.requests.filter((r) => r.path === '/v1/files');
    expect(files).toHaveLength(2);
    const parts = files.map((r) => Object.fromEntries(multipartParts(r).map((p) => [p.name, p])));
    expect(parts.map((p) => p.purpose.body.toString())).toEqual(['dispute_evidence', 'dispute_evidence']);
    expect(parts[0].file.body.equals(PNG)).toBe(true);
    expect(parts[1].file.body.equals(PDF)).toBe(true);
    expect(files.map((r) => r.headers['idempotency-key'])).toEqual([
      `dispute:${dispute.id}:evidence:1:customer_communication`,
      `dispute:${dispute.id}:evidence:1:receipt`,
    ]);
    const update = stripe.last(`POST /v1/disputes/${disputeId}`);
    expect(update.form).toMatchObject({
      'evidence[customer_communication]': 'file_live_1',
      'evidence[receipt]': 'file_live_2',
      'evidence[customer_name]': 'Somchai Jaidee',
      submit: 'true',
    });
    expect(update.headers['idempotency-key']).toBe(`dispute:${dispute.id}:evidence:1`);

    // Won: the funds come back (Stripe keeps its fee).
    const fixture = stripeDispute(disputeId, reference);
    const [withdrawal] = fixture.balance_transactions;
    const won = stripeEvent('charge.dispute.closed', {
      ...fixture,
      status: 'won',
      balance_transactions: [
        withdrawal,
        { ...withdrawal, amount: 125000, fee: 0, reporting_category: 'dispute_reversal' },
      ],
    });
    expect((await stripeHook(won)).body).toMatchObject({ result: 'applied' });
    expect((await stripeHook(won)).body).toMatchObject({ result: 'duplicate' });
    expect(await disputeOf(stripeApp, disputeId)).toMatchObject({ status: 'won', settled: true, reinstated: true });
    expect(await entries(stripeApp, dispute.number)).toEqual(
      sorted([...opened, [-125000, 'disputes', 'dispute_reversal'], [125000, 'merchant', 'dispute_reversal']]),
    );
  });

  const close = (t: TestApp, id: string) => t.http.post(tenant.path(`/disputes/${id}/close`)).set(tenant.as('live'));

  it('Stripe: /close accepts the dispute at Stripe (POST /v1/disputes/{id}/close, keyed), lost with Stripe’s fee and no table fee; the closed webhook after it changes nothing', async () => {
    const { reference } = await paidStripeCharge();
    const disputeId = `dp_live${unique()}`;
    const created = stripeEvent('charge.dispute.created', stripeDispute(disputeId, reference));
    expect((await stripeHook(created)).body).toMatchObject({ result: 'applied' });
    const dispute = await disputeOf(stripeApp, disputeId);
    const lost = stripeDispute(disputeId, reference, { status: 'lost' });
    stripe.on(`POST /v1/disputes/${disputeId}/close`, { status: 200, json: lost });

    const res = await close(stripeApp, dispute.id);
    expect({ status: res.status, body: res.body }).toMatchObject({
      status: 200,
      body: { id: dispute.id, status: 'lost', settled: true, reinstated: false },
    });
    const sent = stripe.requests.filter((r) => r.path === `/v1/disputes/${disputeId}/close`);
    expect(sent).toHaveLength(1);
    expect(sent[0].headers['idempotency-key']).toBe(`dispute:${dispute.id}:close`);
    expect(await entries(stripeApp, dispute.number)).toEqual(
      sorted([
        [-125000, 'merchant', 'dispute'],
        [125000, 'disputes', 'dispute'],
        [-1500, 'merchant', 'dispute_fee'],
        [1500, 'fees', 'dispute_fee'],
        [-125000, 'disputes', 'dispute_loss'],
        [125000, 'provider_clearing', 'dispute_loss'],
      ]),
    );
    const closedHook = await stripeHook(stripeEvent('charge.dispute.closed', lost));
    expect(closedHook.body).toMatchObject({ result: 'unchanged' });
    expect(await eventsAbout(stripeApp, 'charge.dispute.closed', dispute.id)).toHaveLength(1);
    expectErrorObject((await close(stripeApp, dispute.id)).body, 'E9504');
    expect(stripe.requests.filter((r) => r.path === `/v1/disputes/${disputeId}/close`)).toHaveLength(1);
  });

  it('Opn: /close is PATCH /disputes/{id}/accept: a refusal is E9510 (still open), no answer is E5002 (kept), closing again finishes it: lost with the table fee, once', async () => {
    const { reference } = await paidOpnCharge();
    const disputeId = `dspt_5live${unique()}`;
    const event = `evnt_5dspt${unique()}`;
    serveOpnEvent(event, 'dispute.create', opnDispute(disputeId, reference));
    expect((await opnHook(event)).body).toMatchObject({ result: 'applied' });
    const dispute = await disputeOf(opnApp, disputeId);
    const accept = `PATCH /disputes/${disputeId}/accept`;
    opn.on(`GET /disputes/${disputeId}`, { status: 200, json: opnDispute(disputeId, reference) });
    opn.on(
      accept,
      { status: 400, json: { object: 'error', code: 'bad_request', message: 'dispute cannot be accepted' } },
      { status: 503, json: { object: 'error', code: 'service_unavailable', message: 'try later' } },
      { status: 200, json: opnDispute(disputeId, reference, { status: 'lost' }) },
    );

    const refused = await close(opnApp, dispute.id);
    expect(refused.status).toBe(422);
    expectErrorObject(refused.body, 'E9510');
    expect(await disputeOf(opnApp, disputeId)).toMatchObject({ status: 'needs_response', settled: false });

    const unanswered = await close(opnApp, dispute.id);
    expect(unanswered.status).toBe(502);
    expectErrorObject(unanswered.body, 'E5002');
    expect(await disputeOf(opnApp, disputeId)).toMatchObject({ status: 'needs_response' });

    const res = await close(opnApp, dispute.id);
    expect({ status: res.status, body: res.body }).toMatchObject({
      status: 200,
      body: { status: 'lost', settled: true },
    });
    expect(opn.requests.filter((r) => r.method === 'PATCH' && r.path === `/disputes/${disputeId}/accept`)).toHaveLength(
      3,
    );
    expect(await entries(opnApp, dispute.number)).toEqual(OPN_LOST_ENTRIES);
    expect(await eventsAbout(opnApp, 'charge.dispute.closed', dispute.id)).toHaveLength(1);
  });

  it('a lost webhook: the reconciliation job lists Stripe’s recent disputes and applies the missing one once; evidence after due_by is E9503', async () => {
    const { reference, chargeId } = await paidStripeCharge();
    const disputeId = `dp_live${unique()}`;
    stripe.on('GET /v1/disputes', {
      status: 200,
      json: { object: 'list', url: '/v1/disputes', has_more: false, data: [stripeDispute(disputeId, reference)] },
    });
    const job = stripeApp.app.get(ProviderReconciliationJob);
    const scope = { applicationIds: [tenant.applicationId], modes: ['live' as const] };
    const run = await job.run(scope);
    expect(run).toMatchObject({ disputes_applied: 1 });
    expect(stripe.last('GET /v1/disputes').query).toMatchObject({ limit: '100' });
    const dispute = await disputeOf(stripeApp, disputeId);
    expect(dispute).toMatchObject({ status: 'needs_response', charge_id: chargeId });
    expect((await job.run(scope)).disputes_applied).toBe(0);
    expect(await entries(stripeApp, dispute.number)).toHaveLength(4);
    expect(await eventsAbout(stripeApp, 'charge.dispute.created', dispute.id)).toHaveLength(1);
    // The webhook arriving late finds it applied.
    const late = stripeEvent('charge.dispute.created', stripeDispute(disputeId, reference));
    expect((await stripeHook(late)).body).toMatchObject({ result: 'unchanged' });

    stripeApp.clock.advance(8 * DAY);
    const pastDue = await submit(stripeApp, dispute.id, { evidence: { customer_name: 'Somchai Jaidee' } });
    expect(pastDue.status).toBe(422);
    expectErrorObject(pastDue.body, 'E9503');
    expect(stripe.requests.filter((r) => r.path === `/v1/disputes/${disputeId}`)).toHaveLength(0);

    await expectLedgerInvariants(stripeApp, [tenant.applicationId]);
  });
});
