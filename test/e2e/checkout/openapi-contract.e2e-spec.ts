import { createTenant, startApp, type Tenant, type TestApp } from '../../support/harness.js';
import { OpenApiContract } from '../../support/openapi.js';
import {
  CARDS,
  card,
  confirm,
  createOpenInvoice,
  paymentIntentCheckout,
  expectLedgerInvariants,
} from '../../factories/checkout.js';

const BASE = '/api/v1/{app}/platform/wallet';

describe('collection responses match the OpenAPI document', () => {
  let t: TestApp;
  let tenant: Tenant;
  let contract: OpenApiContract;

  beforeAll(async () => {
    t = await startApp();
    tenant = await createTenant(t);
    contract = await OpenApiContract.load(t);
  });
  afterAll(async () => {
    await expectLedgerInvariants(t, [tenant.applicationId]);
    await t.close();
  });

  const get = (path: string) => t.http.get(tenant.path(path)).set(tenant.as('test'));

  it('documents payment intents, invoices, checkouts, payments, charges and payment links as answered', async () => {
    const created = await t.http
      .post(tenant.path('/payment_intents'))
      .set(tenant.as('test'))
      .send({ amount: 5000, currency: 'THB' });
    contract.assert('POST', `${BASE}/payment_intents`, created);
    contract.assert('GET', `${BASE}/payment_intents/{id}`, await get(`/payment_intents/${created.body.id}`));
    contract.assert('GET', `${BASE}/payment_intents`, await get('/payment_intents'));

    const invoice = await createOpenInvoice(t, tenant);
    contract.assert('GET', `${BASE}/invoices/{id}`, await get(`/invoices/${invoice.id}`));
    contract.assert('GET', `${BASE}/invoices`, await get('/invoices'));

    const res = await t.http
      .post(tenant.path('/checkouts'))
      .set(tenant.as('test'))
      .send({ target_type: 'invoice', target_id: invoice.id });
    contract.assert('POST', `${BASE}/checkouts`, res);
    const notFound = await t.http
      .post(tenant.path('/checkouts'))
      .set(tenant.as('test'))
      .send({ target_type: 'invoice', target_id: created.body.id });
    contract.assert('POST', `${BASE}/checkouts`, notFound);
    const invalid = await t.http.post(tenant.path('/checkouts')).set(tenant.as('test')).send({});
    contract.assert('POST', `${BASE}/checkouts`, invalid);
    contract.assert('GET', `${BASE}/checkouts/{id}`, await get(`/checkouts/${res.body.id}`));

    const declined = await confirm(t, tenant, res.body, card(CARDS.declined));
    contract.assert('POST', `${BASE}/checkouts/{id}/confirm`, declined);
    const paid = await confirm(t, tenant, res.body, card(CARDS.visa));
    contract.assert('POST', `${BASE}/checkouts/{id}/confirm`, paid);
    contract.assert('GET', `${BASE}/charges/{id}`, await get(`/charges/${paid.body.charge.id}`));
    contract.assert('GET', `${BASE}/charges`, await get('/charges'));
    contract.assert('GET', `${BASE}/checkouts`, await get('/checkouts'));

    const { checkout: qr } = await paymentIntentCheckout(t, tenant);
    const pending = await confirm(t, tenant, qr, { payment_method_type: 'promptpay' });
    contract.assert('POST', `${BASE}/checkouts/{id}/confirm`, pending);
    const promptpayPaid = await t.http
      .post(tenant.path(`/test_helpers/checkouts/${qr.id}/pay_promptpay`))
      .set(tenant.as('test'));
    contract.assert('POST', `${BASE}/test_helpers/checkouts/{id}/pay_promptpay`, promptpayPaid);

    const link = await t.http
      .post(tenant.path('/payment_links'))
      .set(tenant.as('test'))
      .send({ target_type: 'payment_intent', target_id: created.body.id });
    contract.assert('POST', `${BASE}/payment_links`, link);
    contract.assert('GET', `${BASE}/payment_links`, await get('/payment_links'));
    const released = await t.http.post(tenant.path('/test_helpers/holds/release')).set(tenant.as('test'));
    contract.assert('POST', `${BASE}/test_helpers/holds/release`, released);
  });
});
