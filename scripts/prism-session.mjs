#!/usr/bin/env node
/**
 * The OpenAPI document against real answers: Stoplight Prism's validation proxy, built from the
 * document GET /docs-json serves (dist/openapi.json, `npm run openapi:write`), in front of a
 * started service (embedded database, its demo application), with a scripted partner session of
 * about 80 calls through the proxy: customers, meters and events, payment intents, checkouts paid
 * by card and PromptPay, charges, refunds, accounts and bank accounts, payouts, disputes, webhook
 * endpoints, events, lists, and the errors a partner meets (unknown ids, a missing field, a wrong
 * key, a body over the limit, a state that forbids the call).
 *
 * Prism (`prism proxy <doc> <service> --errors`) reports in the `sl-violations` header of each
 * answer; with --errors, a response that breaks its schema becomes Prism's own 500. The run fails
 * on any response violation (a schema broken, a status the operation does not list); request
 * violations (the deliberate bad requests) are counted and shown.
 *
 * Usage: node scripts/prism-session.mjs (after `npm run build` and `npm run openapi:write`).
 * PRISM_DOCUMENT checks another document (e.g. one broken on purpose); PRISM_LOG keeps Prism's log.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const freePort = () =>
  new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

const dataDir = mkdtempSync(join(tmpdir(), 'prism-session-'));
const [servicePort, prismPort] = [await freePort(), await freePort()];
const documentPath = process.env.PRISM_DOCUMENT ?? 'dist/openapi.json';
const children = [];
const stop = () => {
  for (const child of children) child.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
};
process.on('exit', stop);

const serviceEnv = {
  ...process.env,
  DATA_DIR: dataDir,
  PORT: String(servicePort),
  HOST: '127.0.0.1',
  LOG_LEVEL: 'warn',
};
delete serviceEnv.DATABASE_URL;
delete serviceEnv.REDIS_URL;
children.push(
  spawn(process.execPath, ['dist/src/main.js'], { env: serviceEnv, stdio: ['ignore', 'ignore', 'inherit'] }),
);
children.push(
  spawn(
    process.execPath,
    [
      'node_modules/@stoplight/prism-cli/dist/index.js',
      'proxy',
      documentPath,
      `http://127.0.0.1:${servicePort}`,
      '--errors',
      '--host',
      '127.0.0.1',
      '--port',
      String(prismPort),
    ],
    { stdio: ['ignore', process.env.PRISM_LOG ? openSync(process.env.PRISM_LOG, 'w') : 'ignore', 'inherit'] },
  ),
);

async function until(what, check) {
  for (let i = 0; i < 720; i++) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${what} did not come up`);
}
await until(
  'the service',
  async () =>
    existsSync(join(dataDir, 'demo-keys.json')) && (await fetch(`http://127.0.0.1:${servicePort}/healthz`)).ok,
);
const prism = `http://127.0.0.1:${prismPort}`;
await until('Prism', async () => (await fetch(`${prism}/errors/E2000`)).status === 200);

const key = JSON.parse(readFileSync(join(dataDir, 'demo-keys.json'), 'utf8')).keys.test;
const base = '/api/v1/demo/platform/wallet';
const headers = {
  Authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}`,
  'X-Test-Mode': 'true',
  'X-Country': 'TH',
};

const results = { calls: 0, ms: 0, byStatus: {}, responseViolations: [], undocumented: [], requestViolations: 0 };

/** One call through Prism: `path` under the wallet base unless it starts with `//`. */
async function call(method, path, body, extra = {}) {
  const url = path.startsWith('//') ? `${prism}${path.slice(1)}` : `${prism}${base}${path}`;
  const init = { method, headers: { ...headers, ...extra } };
  if (body !== undefined) {
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
    init.headers['Content-Type'] = 'application/json';
  }
  const started = performance.now();
  const res = await fetch(url, init);
  const text = await res.text();
  const json = text ? JSON.parse(text) : undefined;
  results.calls += 1;
  results.ms += performance.now() - started;
  results.byStatus[res.status] = (results.byStatus[res.status] ?? 0) + 1;
  const violations = res.headers.get('sl-violations');
  const seen = `${method} ${path.split('?')[0]} ${res.status}`;
  for (const v of violations ? JSON.parse(violations.replace(/^Too many violations! /, '')) : []) {
    if (v.location?.[0] === 'request') results.requestViolations += 1;
    else if (/Unable to match the returned status code/.test(v.message)) results.undocumented.push(seen);
    else results.responseViolations.push(`${seen}: ${v.location?.join('.')} ${v.message}`);
  }
  if (json?.type === 'https://stoplight.io/prism/errors#UNPROCESSABLE_ENTITY') results.requestViolations += 1;
  if (json?.type === 'https://stoplight.io/prism/errors#VIOLATIONS' || json?.type === 'VIOLATIONS') {
    for (const v of json.validation ?? [])
      results.responseViolations.push(`${seen}: ${v.location?.join('.')} ${v.message}`);
  }
  return { status: res.status, body: json };
}

/** A step the session expects to succeed: shown when it does not (a later step needing its object then throws). */
const must = (label, res, status = 200) => {
  if (res.status !== status) console.log(`step "${label}": ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
  return res.body;
};

// Errors, documented on every operation.
must('catalog', await call('GET', '/errors/catalog'));
must('error page', await call('GET', '//errors/E2000'));
await call('GET', '//errors/E0000');
await call('GET', '/customers', undefined, { Authorization: 'Basic d3Jvbmc6' });
await call('GET', '/customers', undefined, { 'X-Country': '' });

// Customers: with and without an address (null address and shipping).
const plain = must('customer', await call('POST', '/customers', { name: 'สมชาย ใจดี', email: 'somchai@example.co.th' }));
const addressed = must(
  'customer with address',
  await call('POST', '/customers', {
    name: 'สมหญิง รักไทย',
    address: { line1: '99 ถนนสุขุมวิท', city: 'กรุงเทพมหานคร', postal_code: '10110', country: 'TH' },
    metadata: { crm_id: 'TH-1002', tier: 'gold' },
  }),
);
must('customer', await call('GET', `/customers/${plain.id}`));
must('customer', await call('GET', `/customers/${addressed.id}`));
must('customers', await call('GET', '/customers?limit=5&sort=created_at:desc'));
await call('GET', '/customers/0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b');
await call('GET', '/customers?limit=1000');

// Meters and usage.
const eventName = `api_calls_${Date.now()}`;
const meter = must(
  'meter',
  await call('POST', '/meters', {
    display_name: 'API calls',
    event_name: eventName,
    value_settings: { event_payload_key: 'calls' },
  }),
);
must('meter', await call('GET', `/meters/${meter.id}`));
must('meters', await call('GET', '/meters'));
const usage = must(
  'meter event',
  await call('POST', '/meter_events', { event_name: eventName, customer_id: plain.id, payload: { calls: '25' } }),
);
must('meter event', await call('GET', `/meter_events/${usage.id}`));
must(
  'meter event batch',
  await call('POST', '/meter_events/batch', {
    events: [
      { event_name: eventName, customer_id: plain.id, payload: { calls: '3' } },
      { event_name: eventName, customer_id: addressed.id, payload: { calls: '1' } },
    ],
  }),
);
await call('POST', '/meter_events', {
  event_name: eventName,
  customer_id: plain.id,
  payload: { calls: 'x'.repeat(1024 * 1024 + 1) },
});
await call(
  'GET',
  `/meters/${meter.id}/event_summaries?customer_id=${plain.id}&start_time=2020-01-01T00:00:00Z&end_time=2030-01-01T00:00:00Z`,
);

// Payment intents and checkouts: card, PromptPay, a missing amount, a cancel.
await call('POST', '/payment_intents', { currency: 'THB' });
await call('POST', '/payment_intents', {
  amount: 1000,
  currency: 'THB',
  customer_id: '0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b',
});
const pay = async (amount, method) => {
  const pi = must(
    'payment intent',
    await call('POST', '/payment_intents', { amount, currency: 'THB', customer_id: plain.id }),
  );
  const checkout = must(
    'checkout',
    await call('POST', '/checkouts', { target_type: 'payment_intent', target_id: pi.id }),
  );
  const session = { 'X-Session-Token': checkout.session, Authorization: '' };
  if (method === 'card') {
    const token = must(
      'vault token',
      await call(
        'POST',
        `//api/v1/demo/vault/tokens`,
        { card: { number: '4242424242424242', exp_month: 12, exp_year: 2099, cvc: '123' } },
        session,
      ),
    );
    must(
      'confirm',
      await call(
        'POST',
        `/checkouts/${checkout.id}/confirm`,
        { payment_method_type: 'card', token: token.id },
        session,
      ),
    );
  } else {
    must(
      'confirm',
      await call('POST', `/checkouts/${checkout.id}/confirm`, { payment_method_type: 'promptpay' }, session),
    );
    must('pay promptpay', await call('POST', `/test_helpers/checkouts/${checkout.id}/pay_promptpay`));
  }
  must('checkout', await call('GET', `/checkouts/${checkout.id}`));
  return must('payment intent', await call('GET', `/payment_intents/${pi.id}`));
};
const byCard = await pay(125000, 'card');
const byPromptPay = await pay(50000, 'promptpay');
const open = must('payment intent', await call('POST', '/payment_intents', { amount: 2000, currency: 'THB' }));
must(
  'cancel',
  await call('POST', `/payment_intents/${open.id}/cancel`, { cancellation_reason: 'requested_by_customer' }),
);
await call('POST', `/payment_intents/${open.id}/cancel`, {});
must('payment intents', await call('GET', '/payment_intents?limit=5'));
must('checkouts', await call('GET', '/checkouts?limit=5'));
const expiring = must(
  'checkout',
  await call('POST', '/checkouts', {
    target_type: 'payment_intent',
    target_id: must('pi', await call('POST', '/payment_intents', { amount: 3000, currency: 'THB' })).id,
  }),
);
must('expire', await call('POST', `/test_helpers/checkouts/${expiring.id}/expire`, {}));

// Charges, balances, refunds, disputes.
const charges = must('charges', await call('GET', '/charges?limit=10'));
for (const charge of charges.data.slice(0, 3)) must('charge', await call('GET', `/charges/${charge.id}`));
must('balances', await call('GET', '/balances'));
must('balance transactions', await call('GET', '/balance_transactions?limit=5&filter[currency]=THB'));
must('release holds', await call('POST', '/test_helpers/holds/release', {}));
const charge = charges.data.find((c) => c.payment_intent === byCard.id) ?? charges.data[0];
const refund = must(
  'refund',
  await call('POST', '/refunds', { charge_id: charge.id, amount: 1000, reason: 'requested_by_customer' }),
);
must('refund', await call('GET', `/refunds/${refund.id}`));
await call('POST', `/test_helpers/refunds/${refund.id}/settle`, {}); // 409 when the sandbox settled it already
must('refunds', await call('GET', '/refunds'));
const dispute = must('dispute', await call('POST', '/test_helpers/disputes', { charge_id: charge.id }));
must('dispute', await call('GET', `/disputes/${dispute.id}`));
must(
  'dispute update',
  await call('POST', `/disputes/${dispute.id}`, { evidence: { customer_name: 'สมชาย ใจดี' }, metadata: { case: '7' } }),
);
must('win', await call('POST', `/test_helpers/disputes/${dispute.id}/win`, {}));
await call('POST', `/test_helpers/disputes/${dispute.id}/lose`, {});
must('disputes', await call('GET', '/disputes'));
void byPromptPay;

// Invoices and payment links.
const invoice = must(
  'invoice',
  await call('POST', '/invoices', {
    customer_id: plain.id,
    currency: 'THB',
    line_items: [{ description: 'ค่าบริการ', amount: 50000, quantity: 1 }],
  }),
);
must('finalize', await call('POST', `/invoices/${invoice.id}/finalize`, {}));
must('invoice', await call('GET', `/invoices/${invoice.id}`));
must('void', await call('POST', `/invoices/${invoice.id}/void`, {}));
must('invoices', await call('GET', '/invoices'));
const linked = must('payment intent', await call('POST', '/payment_intents', { amount: 9900, currency: 'THB' }));
const link = must(
  'payment link',
  await call('POST', '/payment_links', { target_type: 'payment_intent', target_id: linked.id }),
);
must('payment link', await call('GET', `/payment_links/${link.id}`));
must('deactivate link', await call('POST', `/payment_links/${link.id}/deactivate`, {}));
must('payment links', await call('GET', '/payment_links'));

// Accounts, bank accounts, payouts.
const own = must('own account', await call('GET', '/accounts?filter[type]=own')).data[0];
const seller = must(
  'account',
  await call('POST', '/accounts', { name: 'บ้านสมชาย', email: 'finance@baansomchai.co.th' }),
);
must('verify', await call('POST', `/test_helpers/accounts/${seller.id}/verify`, {}));
must('account', await call('GET', `/accounts/${seller.id}`));
const bookbank = must(
  'bookbank',
  await call('POST', '/bank_accounts', {
    account: own.id,
    type: 'bookbank',
    account_holder_name: 'บ้านสมชาย จำกัด',
    target: 'THB',
    extra_fields: { bankCode: '004', accountNumber: '1234567890', branchCode: '0123', accountType: 'savings' },
  }),
);
await call('POST', '/bank_accounts', { account: own.id, type: 'bookbank', account_holder_name: 'x', target: 'THB' });
must('bank account', await call('GET', `/bank_accounts/${bookbank.id}`));
must('bank accounts', await call('GET', '/bank_accounts'));
must(
  'intent',
  await call('POST', '/bank_account_intents', {
    account: seller.id,
    return_url: 'https://partner.example/done',
    refresh_url: 'https://partner.example/new',
  }),
);
const balance = must('balances', await call('GET', '/balances')).data.find((b) => b.currency === 'THB');
const payout = await call('POST', '/payouts', {
  account: own.id,
  amount: 1000,
  currency: 'THB',
  destination: bookbank.id,
});
if (payout.status === 200) {
  must('payout', await call('GET', `/payouts/${payout.body.id}`));
  await call('POST', `/test_helpers/payouts/${payout.body.id}/paid`, {});
}
must('payouts', await call('GET', '/payouts'));
await call('GET', `/payout_schedules/${own.id}`);
void balance;

// Webhook endpoints and events.
const endpoint = must(
  'endpoint',
  await call('POST', '/webhook_endpoints', { url: 'https://partner.example/hooks', enabled_events: ['*'] }),
);
must('endpoint', await call('GET', `/webhook_endpoints/${endpoint.id}`));
must('update endpoint', await call('POST', `/webhook_endpoints/${endpoint.id}`, { disabled: true }));
must('rotate', await call('POST', `/webhook_endpoints/${endpoint.id}/rotate_secret`, {}));
must('endpoints', await call('GET', '/webhook_endpoints'));
const events = must('events', await call('GET', '/events?limit=20'));
for (const event of events.data.slice(0, 5)) must('event', await call('GET', `/events/${event.id}`));
await call('GET', `/events/${events.data[0].id}/deliveries`);
must('delete endpoint', await call('DELETE', `/webhook_endpoints/${endpoint.id}`));

stop();
const summary = {
  calls: results.calls,
  session_seconds: Math.round(results.ms / 100) / 10,
  by_status: results.byStatus,
  response_violations: results.responseViolations.length,
  undocumented_statuses: results.undocumented.length,
  request_violations: results.requestViolations,
};
console.log(JSON.stringify(summary));
for (const line of [...new Set(results.responseViolations)]) console.log(`response violation: ${line}`);
for (const line of [...new Set(results.undocumented)]) console.log(`undocumented status: ${line}`);
process.exit(results.responseViolations.length + results.undocumented.length === 0 && results.calls >= 75 ? 0 : 1);
