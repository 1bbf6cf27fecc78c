/**
 * A partner's first program against the wallet API, through a client generated from the OpenAPI
 * document (openapi-typescript + openapi-fetch): a customer, a meter and its event, a payment
 * intent and its checkout, a filtered list, and a bookbank bank account with its `extra_fields`. CI generates wallet-api.d.ts, type-checks this
 * file and runs it against a started service (examples/typed-client/run.sh).
 * Usage: WALLET_URL=http://127.0.0.1:3000 WALLET_APP=demo WALLET_KEY=sk_test_... node main.ts
 */
import createClient from 'openapi-fetch';
import type { paths } from './wallet-api.js';

const base = process.env.WALLET_URL ?? 'http://127.0.0.1:3000';
const app = process.env.WALLET_APP ?? 'demo';
const key = process.env.WALLET_KEY;
if (!key) throw new Error('WALLET_KEY: a test secret key of the application');

const client = createClient<paths>({
  baseUrl: base,
  headers: { Authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}` },
});
/** Every wallet call: the application slug, test data, the country (Thailand). */
const wallet = { path: { app }, header: { 'X-Test-Mode': 'true', 'X-Country': 'TH' } } as const;

function ok<T>(label: string, result: { data?: T; error?: unknown; response: Response }): T {
  if (result.data === undefined) {
    throw new Error(`${label}: HTTP ${result.response.status} ${JSON.stringify(result.error)}`);
  }
  console.log(`${label}: HTTP ${result.response.status}`);
  return result.data;
}

const customer = ok(
  'create customer',
  await client.POST('/api/v1/{app}/platform/wallet/customers', {
    params: wallet,
    body: { name: 'สมชาย ใจดี', email: 'somchai@example.co.th', metadata: { crm_id: 'TH-1001' } },
  }),
);

const eventName = `api_call_${Date.now()}`;
const meter = ok(
  'create meter',
  await client.POST('/api/v1/{app}/platform/wallet/meters', {
    params: wallet,
    body: { display_name: 'API calls', event_name: eventName, value_settings: { event_payload_key: 'api_calls' } },
  }),
);

const event = ok(
  'send meter event',
  await client.POST('/api/v1/{app}/platform/wallet/meter_events', {
    params: wallet,
    body: { event_name: meter.event_name, customer_id: customer.id, payload: { api_calls: '25' } },
  }),
);

const intent = ok(
  'create payment intent',
  await client.POST('/api/v1/{app}/platform/wallet/payment_intents', {
    params: wallet,
    body: { amount: 125000, currency: 'THB', customer_id: customer.id, description: 'ค่าบริการ API เดือนพฤศจิกายน' },
  }),
);

const checkout = ok(
  'create checkout',
  await client.POST('/api/v1/{app}/platform/wallet/checkouts', {
    params: wallet,
    body: { target_type: 'payment_intent', target_id: intent.id },
  }),
);

const transactions = ok(
  'list balance transactions',
  await client.GET('/api/v1/{app}/platform/wallet/balance_transactions', {
    params: { ...wallet, query: { 'filter[currency]': 'THB', limit: 5 } },
  }),
);

const own = ok(
  'find own account',
  await client.GET('/api/v1/{app}/platform/wallet/accounts', {
    params: { ...wallet, query: { 'filter[type]': 'own', limit: 1 } },
  }),
);

// A Kasikornbank (004) savings account: `extra_fields` is typed as a map of strings, no cast.
const bankAccount = ok(
  'create bookbank account',
  await client.POST('/api/v1/{app}/platform/wallet/bank_accounts', {
    params: wallet,
    body: {
      account: own.data[0].id,
      type: 'bookbank',
      account_holder_name: 'บ้านสมชาย จำกัด',
      target: 'THB',
      extra_fields: { bankCode: '004', accountNumber: '1234567890', branchCode: '0123', accountType: 'savings' },
    },
  }),
);

console.log(
  JSON.stringify({
    customer: customer.id,
    meter: meter.id,
    meter_event: event.id,
    checkout: checkout.id,
    checkout_url: checkout.url,
    balance_transactions: transactions.data.length,
    bank_account: bankAccount.id,
  }),
);
