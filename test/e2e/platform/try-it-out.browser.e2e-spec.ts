import { appendFileSync } from 'node:fs';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { Browser, Locator, Page } from 'playwright-core';
import { AUDITED_ROUTES, auditKeyOf, isAudited, type RouteAudit } from '../../../src/common/audit/audited-routes.js';
import { EXAMPLE_ID } from '../../../src/common/http/examples.js';
import { childProcessesCpuMs, launchBrowser } from '../../support/browser.js';
import { createTenant, startApp, type Tenant, type TestApp } from '../../support/harness.js';
import { createUser, createClient, tokensFor } from '../../factories/auth.js';
import { CARDS, card, confirm, createCheckout, createCustomer, createPaymentIntent } from '../../factories/checkout.js';
import { saveCard, setupCheckout } from '../../factories/payment-methods.js';
import { connectedAccount, setSandboxFailing } from '../../factories/payouts.js';
import { MATRIX_WEBHOOK_URL, eventRecords } from '../../factories/matrix/events.js';
import { ledgerRecords } from '../../factories/matrix/ledger.js';
import { payoutLifecycleRecords } from '../../factories/matrix/payouts.js';
import { SubscriptionsJob } from '../../../src/modules/billing/subscriptions/index.js';
import { ApiKeysService } from '../../../src/modules/applications/index.js';
import { recordSecret } from '../../support/secrets.js';

/**
 * "Try it out" on every operation of the Swagger UI at /docs, in Debian's Chromium, as a partner
 * would: authorize, filter the list by the operation's tag, expand the operation, Try it out, keep
 * the values the document fills in (its examples, the application slug `demo` among them), change only
 * what must name a real object (ids made beforehand through the API), Execute, and read the response the UI
 * shows. Every operation answers one of its documented statuses, never a 5xx, never a network
 * failure; a 2xx unless OVERRIDES says which documented 4xx (with the error object) a precondition
 * makes it.
 *
 * Every state-changing call is also checked against its audit rows (docs/AUDIT.md): found by the
 * request id of its answer, they must be exactly what AUDITED_ROUTES (src/common/audit/audited-routes.ts)
 * says, with the walk's credential as actor and test mode; a refused call leaves none. So a new
 * write route without its audit rows (or its entry there) fails here.
 *
 * The operation list comes from /docs-json, so a new route is tried without a change here. A new
 * route whose path or body names an object that must exist needs that object in `fixtures` (keyed
 * by the path segment before `{id}`, or by the body field in BODY_IDS) or a line in OVERRIDES.
 */

const PREFIX = '/api/v1/{app}/platform/wallet';
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
/**
 * TRY_IT_OUT_LOG=<file>: each operation's outcome as it happens (Jest shows the failures only at the
 * end), with the milliseconds it took and the CPU milliseconds it cost the browser (Chromium's
 * processes) and this process (the service and the Playwright client), and the time of the fixtures
 * and of each page load.
 */
const PROGRESS = process.env.TRY_IT_OUT_LOG;
/** TRY_IT_OUT_ONLY=<regular expression>: walk only the operations whose `METHOD /path` matches (a local check). */
const ONLY = process.env.TRY_IT_OUT_ONLY ? new RegExp(process.env.TRY_IT_OUT_ONLY) : undefined;

/** Wall-clock ms since `start`, and the CPU ms the browser and this process used since then. */
function spent(start: { wall: number; browser: number; self: NodeJS.CpuUsage }): string {
  const self = process.cpuUsage(start.self);
  return `${Math.round(performance.now() - start.wall)} ms; CPU ms: browser ${childProcessesCpuMs() - start.browser}, service ${Math.round((self.user + self.system) / 1000)}`;
}
const mark = () => ({
  wall: performance.now(),
  browser: PROGRESS ? childProcessesCpuMs() : 0,
  self: process.cpuUsage(),
});

/**
 * Operations tried on one page before it is closed and /docs opened (and authorized) again. Swagger
 * UI's page keeps what each expanded operation resolved: its JavaScript heap grew past 1 GB over the
 * walk and Chromium's CPU per operation from ~1 s to ~2.5 s (garbage collection); a fresh page costs ~3 s.
 */
const REOPEN_EVERY = Number(process.env.TRY_IT_OUT_REOPEN_EVERY ?? 20);

type Ids = Record<string, string>;
/** Unused refresh tokens (`=refresh` in OVERRIDES takes one). */
const refreshTokens: string[] = [];

interface Override {
  /** Fixture key of the `{id}` (or `{account}`) in the path, instead of the segment before it. */
  id?: string;
  /** Fixture keys of body fields holding EXAMPLE_ID, instead of BODY_IDS. */
  body?: Record<string, string>;
  /** Values for parameters the document has no example for (by name), fixture keys after `=`. */
  params?: Record<string, string>;
  /** Path parameters given outright (a value, or a fixture key after `=`), instead of a fixture id. */
  path?: Record<string, string>;
  /** Form fields (application/x-www-form-urlencoded and multipart bodies), fixture keys after `=`. */
  form?: Record<string, string>;
  /** Body fields the partner clears (the example shows every field; some exclude each other). */
  omit?: string[];
  /** Files of a multipart body, by field: what the partner picks in the file chooser. */
  files?: Record<string, { name: string; mimeType: string; buffer: Buffer }>;
  /** The documented 4xx and error code a precondition gives, instead of a 2xx. */
  expect?: { status: number; code: string };
}

/** Body fields that name an object, and the fixture each takes (keyed by the field's name). */
const BODY_IDS: Record<string, string> = {
  customer_id: 'customers',
  account: 'accounts',
  destination: 'bank_accounts',
  target_id: 'payment_intents',
  charge_id: 'charges',
  webhook_endpoint_id: 'webhook_endpoints',
  product_id: 'products',
  price_id: 'prices',
  meter_id: 'meters',
  coupon_id: 'coupons',
  price_ids: 'prices',
  default_tax_rates: 'tax_rates',
  default_payment_method: 'payment_methods',
};

/** A PNG (its signature and an IHDR chunk of a 1x1 image): what the file chooser picks for POST /files. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** Per operation (`METHOD /path` without the wallet prefix): what differs from the defaults above. */
const OVERRIDES: Record<string, Override> = {
  // The example body names a payout and an interval (the form shows every field): the interval goes.
  'POST /reconciliation_runs': { omit: ['interval_start', 'interval_end'] },
  // Each state change gets an object of its own, so the reads and the other changes keep theirs.
  'POST /payment_intents/{id}/cancel': { id: 'intent_to_cancel' },
  'POST /payment_intents/{id}/capture': { id: 'intent_to_capture' },
  'POST /invoices/{id}/finalize': { id: 'draft_invoice' },
  'POST /meters/{id}/deactivate': { id: 'meter_to_deactivate' },
  'POST /checkouts/{id}/confirm': { id: 'checkout_to_confirm' },
  'POST /test_helpers/checkouts/{id}/expire': { id: 'checkout_to_expire' },
  'POST /test_helpers/payment_intents/{id}/expire_authorization': { id: 'authorization_to_expire' },
  'POST /test_helpers/checkouts/{id}/pay_promptpay': { id: 'checkout_to_pay' },
  'POST /test_helpers/charges/{id}/succeed': { id: 'charge_to_succeed' },
  'POST /test_helpers/charges/{id}/fail': { id: 'charge_to_fail' },
  // The sandbox's payment page and its action, for a charge the sandbox did not make (the example id): not found.
  'GET /provider_returns/sandbox/{charge_id}/authorize': {
    path: { charge_id: '0193a9c2-7b1e-7c3d-9f00-5b2f1c3d4e5f' },
    expect: { status: 404, code: 'E7022' },
  },
  'POST /provider_returns/sandbox/{charge_id}/authorize': {
    path: { charge_id: '0193a9c2-7b1e-7c3d-9f00-5b2f1c3d4e5f' },
    body: { outcome: 'succeeded' },
    expect: { status: 404, code: 'E7022' },
  },
  'POST /test_helpers/accounts/{id}/verify': { id: 'pending_account' },
  'POST /test_helpers/accounts/{id}/reject': { id: 'account_to_reject' },
  'POST /test_helpers/disputes': { body: { charge_id: 'charge_to_dispute' } },
  'POST /disputes/{id}/close': { id: 'dispute_to_close' },
  'POST /test_helpers/disputes/{id}/win': { id: 'dispute_to_win' },
  'POST /test_helpers/disputes/{id}/lose': { id: 'dispute_to_lose' },
  'POST /test_helpers/refunds/{id}/settle': { id: 'pending_refund' },
  'POST /payouts/{id}/cancel': { id: 'payout_to_cancel' },
  'POST /test_helpers/payouts/{id}/paid': { id: 'payout_to_pay' },
  'POST /test_helpers/payouts/{id}/fail': { id: 'payout_to_fail' },
  'POST /test_helpers/webhook_endpoints/{id}/disable': { id: 'endpoint_to_disable' },
  'POST /bank_account_intents': { body: { account: 'connected_account' } },
  'GET /meters/{id}/event_summaries': { params: { customer_id: '=customers' } },
  'POST /payment_methods/{id}/detach': { id: 'payment_method_to_detach' },
  'DELETE /coupons/{id}': { id: 'coupon_to_delete' },
  'POST /restricted_keys/{id}/roll': { id: 'restricted_key_to_roll' },
  'DELETE /restricted_keys/{id}': { id: 'restricted_key_to_revoke' },
  'POST /test_helpers/test_clocks/{id}/advance': { id: 'clock_to_advance' },
  'DELETE /test_helpers/test_clocks/{id}': { id: 'clock_to_delete' },
  'POST /subscriptions/{id}': { body: { id: 'subscription_items' } },
  'POST /subscriptions/{id}/cancel': { id: 'subscription_to_cancel' },
  // Its example deactivates the price: a price of its own, so `prices` stays usable (credit grants'
  // applicability, subscriptions).
  'POST /prices/{id}': { id: 'price_to_update' },
  'POST /customers/{customer_id}/credit_grants': { path: { customer_id: '=customers' } },
  'GET /customers/{customer_id}/credit_grants': { path: { customer_id: '=customers' } },
  'GET /balances/{id}/statements/{statement_id}': { path: { id: '=balances', statement_id: '=balance_statements' } },
  'POST /credit_grants/{id}/void': { id: 'credit_grant_to_void' },
  'GET /invoices/upcoming': { params: { subscription_id: '=subscriptions' } },
  'GET /invoices/{id}/lines': { id: 'subscription_invoice' },
  'GET /invoices/{id}/lines/{line_id}/meter_events': {
    path: { id: '=subscription_invoice', line_id: '=invoice_line' },
  },
  'POST /files': {
    form: { purpose: 'dispute_evidence' },
    files: { file: { name: 'receipt.png', mimeType: 'image/png', buffer: PNG } },
  },
  // The public page of one catalog code.
  'GET /errors/{code}': { path: { code: 'E2000' } },
  // Inbound provider webhooks: no provider keys in this test's service, the documented 404 says so.
  'POST /provider_webhooks/opn': { expect: { status: 404, code: 'E5203' } },
  'POST /provider_webhooks/stripe': { expect: { status: 404, code: 'E5203' } },
  // The 3-D Secure return of a charge no provider made (the example id): the error object.
  'GET /provider_returns/{provider}/{charge_id}': {
    path: { provider: 'opn', charge_id: '0193a9c2-7b1e-7c3d-9f00-5b2f1c3d4e5f' },
    expect: { status: 404, code: 'E7022' },
  },
  // A public client must send PKCE; without it the error goes to its redirect URI (another origin).
  'GET /oauth2/auth': {
    params: {
      client_id: '=oauth_client',
      state: 'try-it-out',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    },
  },
  // The token routes, at the root and under the wallet prefix: each use spends a refresh token.
  'POST /oauth/token': { form: { grant_type: 'refresh_token', refresh_token: '=refresh', client_id: '=oauth_client' } },
  'POST /oauth/token/refresh': {
    form: { grant_type: 'refresh_token', refresh_token: '=refresh', client_id: '=oauth_client' },
  },
};

interface Operation {
  /** `METHOD /path` without the wallet prefix: the OVERRIDES key (a root route and its prefixed twin share it). */
  key: string;
  /** Its first tag (the resource): the walk filters the UI by it, so only that tag's operations render. */
  tag: string;
  /** `METHOD /full/path`, for the report. */
  label: string;
  method: (typeof METHODS)[number];
  path: string;
  scheme: 'secret_key' | 'bearer' | 'session';
  responses: string[];
  phase: number;
}

/**
 * Order: creations first (document order, so a meter exists before its events), then reads, then
 * the other changes, deletions last, so a read never meets an object a change has closed. Within a
 * phase, one tag's operations come together (tags in the order they first appear, operations in
 * document order), so the "Filter by tag" box changes once per tag and phase, not on nearly every
 * operation (each change re-renders the list).
 */
function phaseOf(method: string, path: string): number {
  if (method === 'delete') return 3;
  if (method === 'get') return 1;
  return /\}$|\/[a-z_]+\/\{[a-z_]+\}\/[a-z_]+$/.test(path) ? 2 : 0;
}

function operationsOf(doc: {
  paths: Record<
    string,
    Record<string, { operationId: string; tags?: string[]; security?: object[]; responses: object }>
  >;
}): Operation[] {
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const schemes = (op.security ?? []).flatMap((s) => Object.keys(s));
      const short =
        path.startsWith(PREFIX) && !OVERRIDES[`${method.toUpperCase()} ${path}`] ? path.slice(PREFIX.length) : path;
      ops.push({
        key: `${method.toUpperCase()} ${short}`,
        label: `${method.toUpperCase()} ${path}`,
        tag: op.tags?.[0] ?? 'default',
        method,
        path,
        scheme: schemes.includes('secret_key')
          ? 'secret_key'
          : schemes.includes('session')
            ? 'session'
            : schemes.includes('bearer')
              ? 'bearer'
              : 'secret_key',
        responses: Object.keys(op.responses),
        phase: phaseOf(method, path),
      });
    }
  }
  const tagOrder = new Map<string, number>();
  for (const op of ops) if (!tagOrder.has(op.tag)) tagOrder.set(op.tag, tagOrder.size);
  return ops
    .map((op, i) => ({ op, i }))
    .sort((a, b) => a.op.phase - b.op.phase || tagOrder.get(a.op.tag)! - tagOrder.get(b.op.tag)! || a.i - b.i)
    .map(({ op }) => op);
}

/** Replaces EXAMPLE_ID under a field named in `fields` by that fixture's id; other values stay. */
function withIds(value: unknown, fields: Record<string, string>, ids: Ids, field = ''): unknown {
  if (Array.isArray(value)) return value.map((v) => withIds(v, fields, ids, field));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withIds(v, fields, ids, k)]));
  if (value === EXAMPLE_ID) {
    const id = ids[fields[field]];
    if (!id) throw new Error(`no fixture for body field ${field}`);
    return id;
  }
  return value;
}

const resolve = (value: string, ids: Ids) => {
  if (!value.startsWith('=')) return value;
  if (value === '=refresh') {
    const token = refreshTokens.pop();
    if (!token) throw new Error('no refresh token left');
    return token;
  }
  const id = ids[value.slice(1)];
  if (!id) throw new Error(`no fixture ${value.slice(1)}`);
  return id;
};

describe('Swagger UI: Try it out on every operation', () => {
  let t: TestApp;
  let browser: Browser;
  let tenant: Tenant;
  const ids: Ids = {};
  const credentials: Record<Operation['scheme'], string> = { secret_key: '', bearer: '', session: '' };
  /** The audit actor each credential is (a session's id is its own: only its type is known here). */
  const actors: Record<Operation['scheme'], { type: string; id: string | null }> = {
    secret_key: { type: 'secret_key', id: null },
    bearer: { type: 'user', id: null },
    session: { type: 'session', id: null },
  };

  const api = (method: 'get' | 'post', path: string, body?: object) => {
    const req = t.http[method](tenant.path(path)).set(tenant.as('test'));
    return (body ? req.send(body) : req).then((res) => {
      if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body as { id: string; session?: string; charge?: { id: string } };
    });
  };
  const cardCharge = async () => {
    const intent = await createPaymentIntent(t, tenant, { amount: 125000 });
    const checkout = await createCheckout(t, tenant, { target_type: 'payment_intent', target_id: intent.id });
    return (await confirm(t, tenant, checkout, card(CARDS.visa))).body.charge.id as string;
  };

  beforeAll(async () => {
    const started = mark();
    t = await startApp({
      listen: true,
      rateLimit: false,
      liveDoubles: true,
      // With TRY_IT_OUT_LOG, the service's log next to it, kept after the run (for a 5xx's cause).
      ...(PROGRESS ? { env: { LOG_FILE: `${PROGRESS}.service.log`, LOG_LEVEL: 'warn' } } : {}),
    });
    // The walk takes minutes (21 on a loaded machine): time stands still for the service, so nothing
    // made here (a PromptPay QR, a session, a token) expires before its operation comes up.
    t.clock.freeze();
    browser = await launchBrowser();
    // The application the document's `app` example names (`demo`, the one a first run makes), so every
    // operation opens with the right slug already in place, as it does for a newcomer.
    tenant = await createTenant(t, { slug: 'demo' });
    ids.customers = (await createCustomer(t, tenant)).id;
    ids.payment_intents = (await createPaymentIntent(t, tenant)).id;
    ids.intent_to_cancel = (await createPaymentIntent(t, tenant)).id;
    // An authorized manual-capture intent (docs/COLLECTION.md, "Manual capture") for the capture's example amount.
    const toCapture = await createPaymentIntent(t, tenant, { amount: 125000, capture_method: 'manual' });
    const authorization = await createCheckout(t, tenant, { target_type: 'payment_intent', target_id: toCapture.id });
    await confirm(t, tenant, authorization, card(CARDS.visa));
    ids.intent_to_capture = toCapture.id;
    const toExpire = await createPaymentIntent(t, tenant, { amount: 125000, capture_method: 'manual' });
    await confirm(
      t,
      tenant,
      await createCheckout(t, tenant, { target_type: 'payment_intent', target_id: toExpire.id }),
      card(CARDS.visa),
    );
    ids.authorization_to_expire = toExpire.id;
    const checkout = async () =>
      createCheckout(t, tenant, {
        target_type: 'payment_intent',
        target_id: (await createPaymentIntent(t, tenant)).id,
      });
    ids.checkouts = (await checkout()).id;
    ids.checkout_to_expire = (await checkout()).id;
    const toConfirm = await checkout();
    ids.checkout_to_confirm = toConfirm.id;
    credentials.session = toConfirm.session;
    const toPay = await checkout();
    await confirm(t, tenant, toPay, { payment_method_type: 'promptpay' });
    ids.checkout_to_pay = toPay.id;
    // Pending TrueMoney charges (a redirect flow) for the generic test helpers.
    for (const name of ['charge_to_succeed', 'charge_to_fail']) {
      const pending = await confirm(t, tenant, await checkout(), { payment_method_type: 'truemoney' });
      ids[name] = pending.body.charge.id;
    }
    const invoice = () =>
      api('post', '/invoices', {
        customer_id: ids.customers,
        currency: 'THB',
        line_items: [{ description: 'Consulting', amount: 50000 }],
      });
    ids.draft_invoice = (await invoice()).id;
    ids.invoices = (await api('post', `/invoices/${(await invoice()).id}/finalize`)).id;
    ids.payment_links = (
      await api('post', '/payment_links', { target_type: 'payment_intent', target_id: ids.payment_intents })
    ).id;
    ids.charges = await cardCharge();
    ids.charge_to_dispute = await cardCharge();
    for (const name of ['dispute_to_close', 'dispute_to_win', 'dispute_to_lose', 'disputes'])
      ids[name] = (await api('post', '/test_helpers/disputes', { charge_id: await cardCharge() })).id;
    ids.refunds = (await api('post', '/refunds', { charge_id: ids.charges, amount: 1000 })).id;
    const promptPay = await checkout();
    await confirm(t, tenant, promptPay, { payment_method_type: 'promptpay' });
    const paid = await api('post', `/test_helpers/checkouts/${promptPay.id}/pay_promptpay`);
    ids.pending_refund = (await api('post', '/refunds', { charge_id: paid.charge!.id, amount: 1000 })).id;
    const meter = (event_name: string) =>
      api('post', '/meters', { display_name: 'Fixture', event_name, value_settings: { event_payload_key: 'n' } });
    ids.meters = (await meter('try_it_out_fixture')).id;
    ids.meter_to_deactivate = (await meter('try_it_out_deactivated')).id;
    ids.meter_events = (
      await api('post', '/meter_events', {
        event_name: 'try_it_out_fixture',
        customer_id: ids.customers,
        payload: { n: '1' },
      })
    ).id;
    // Billing: a catalog, a customer's saved cards, test clocks, subscriptions; and a file.
    ids.products = (await api('post', '/products', { name: 'Try it out plan' })).id;
    const price = () =>
      api('post', '/prices', {
        product_id: ids.products,
        currency: 'THB',
        unit_amount: 29900,
        recurring: { interval: 'month' },
      });
    ids.prices = (await price()).id;
    ids.price_to_update = (await price()).id;
    const coupon = () => api('post', '/coupons', { percent_off: 10, duration: 'once' });
    ids.coupons = (await coupon()).id;
    ids.coupon_to_delete = (await coupon()).id;
    ids.promotion_codes = (await api('post', '/promotion_codes', { coupon_id: ids.coupons, code: 'TRYITOUT' })).id;
    ids.tax_rates = (
      await api('post', '/tax_rates', { display_name: 'VAT', percentage: 7, inclusive: false, country: 'TH' })
    ).id;
    const clock = () => api('post', '/test_helpers/test_clocks', { frozen_time: '2026-12-01T00:00:00.000Z' });
    ids.test_clocks = (await clock()).id;
    ids.clock_to_advance = (await clock()).id;
    ids.clock_to_delete = (await clock()).id;
    for (const name of ['payment_methods', 'payment_method_to_detach']) {
      const setup = await setupCheckout(t, tenant, ids.customers);
      ids[name] = (await saveCard(t, tenant, setup, CARDS.visa)).body.payment_method.id;
    }
    const subscribe = () =>
      api('post', '/subscriptions', {
        customer_id: ids.customers,
        items: [{ price_id: ids.prices, quantity: 1 }],
        trial_period_days: 14,
      }) as Promise<{ id: string; items?: { data: Array<{ id: string }> } | Array<{ id: string }> }>;
    const subscription = await subscribe();
    ids.subscriptions = subscription.id;
    const items = Array.isArray(subscription.items) ? subscription.items : (subscription.items?.data ?? []);
    ids.subscription_items = items[0].id;
    ids.subscription_to_cancel = (await subscribe()).id;
    const creditGrant = () =>
      api('post', `/customers/${ids.customers}/credit_grants`, { amount: 10000, currency: 'THB' });
    ids.credit_grants = (await creditGrant()).id;
    ids.credit_grant_to_void = (await creditGrant()).id;
    // A period closed into an invoice with lines: a customer on a clock past its first month.
    const billingClock = await api('post', '/test_helpers/test_clocks', { frozen_time: '2026-01-01T00:00:00.000Z' });
    const billed = await api('post', '/customers', { name: 'Billed', test_clock: billingClock.id });
    await api('post', '/subscriptions', {
      customer_id: billed.id,
      items: [{ price_id: ids.prices, quantity: 1 }],
      collection_method: 'send_invoice',
    });
    await api('post', `/test_helpers/test_clocks/${billingClock.id}/advance`, {
      frozen_time: '2026-02-01T01:00:00.000Z',
    });
    await t.app.get(SubscriptionsJob).run({ applicationIds: [tenant.applicationId] });
    const closed = (await api('get', `/invoices?filter[customer_id]=${billed.id}`)) as unknown as {
      data: Array<{ id: string }>;
    };
    ids.subscription_invoice = closed.data[0].id;
    const closedLines = (await api('get', `/invoices/${ids.subscription_invoice}/lines`)) as unknown as {
      data: Array<{ id: string }>;
    };
    ids.invoice_line = closedLines.data[0].id;
    const upload = await t.http
      .post(tenant.path('/files'))
      .set(tenant.as('test'))
      .field('purpose', 'dispute_evidence')
      .attach('file', PNG, { filename: 'fixture.png', contentType: 'image/png' });
    if (upload.status !== 200) throw new Error(`post /files: ${upload.status} ${JSON.stringify(upload.body)}`);
    ids.files = upload.body.id;
    ids.report_runs = (
      await api('post', '/reporting/report_runs', {
        report_type: 'balance.summary.1',
        parameters: { interval_start: '2026-11-01T00:00:00Z', interval_end: '2026-11-02T00:00:00Z' },
      })
    ).id;
    ids.reconciliation_runs = (
      await api('post', '/reconciliation_runs', { provider: 'sandbox', payout: 'po_sandbox_walk' })
    ).id;
    const ledger = await ledgerRecords(t, tenant);
    ids.balances = ledger.balance_test;
    ids.balance_transactions = ledger.entry_test;
    ids.balance_statements = (
      await api('post', `/balances/${ids.balances}/statements`, { as_of: '2026-11-01T00:00:00Z' })
    ).id;
    const events = await eventRecords(t, tenant);
    ids.events = events.event_test;
    ids.webhook_endpoints = events.endpoint_test;
    ids.endpoint_to_disable = (
      await api('post', '/webhook_endpoints', { url: MATRIX_WEBHOOK_URL.test, enabled_events: ['*'] })
    ).id;
    const payouts = await payoutLifecycleRecords(t, tenant);
    ids.accounts = payouts.account_test;
    ids.payout_schedules = payouts.account_test;
    ids.bank_accounts = payouts.bank_account_test;
    ids.bank_account_intents = payouts.intent_test;
    ids.payouts = payouts.payout_test;
    const payout = async () =>
      (await api('post', '/payouts', { amount: 100, currency: 'THB', destination: ids.bank_accounts })).id;
    // A payout the provider could not take stays pending: the one state that can be canceled.
    await setSandboxFailing(t, tenant, true);
    ids.payout_to_cancel = await payout();
    await setSandboxFailing(t, tenant, false);
    ids.payout_to_pay = await payout();
    ids.payout_to_fail = await payout();
    ids.connected_account = await connectedAccount(t, tenant, 'verified');
    ids.pending_account = await connectedAccount(t, tenant, 'pending');
    ids.account_to_reject = await connectedAccount(t, tenant, 'pending');
    // An owner: the audit log (GET /audit_events) answers owners and admins only.
    const user = await createUser(t, { member: tenant, role: 'owner' });
    const client = await createClient(t, 'public');
    ids.oauth_client = client.client_id;
    credentials.bearer = (await tokensFor(t, user, client)).access_token;
    for (let n = 0; n < 6; n++) refreshTokens.push((await tokensFor(t, user, client)).refresh_token);
    credentials.secret_key = tenant.keys.test;
    actors.bearer.id = user.id;
    const [testKey]: Array<{ id: string }> = await t.app
      .get<DataSource>(getDataSourceToken('platform'))
      .query(
        `SELECT id FROM platform.api_keys WHERE application_id = $1 AND mode = 'test' AND kind = 'secret' AND status = 'active'`,
        [tenant.applicationId],
      );
    actors.secret_key.id = testKey.id;
    // Restricted keys are managed with a bearer token: made through the service the API uses.
    const restrictedKey = async () => {
      const created = await t.app
        .get(ApiKeysService)
        .createRestrictedKey(tenant.applicationId, 'test', { name: 'Walk', permissions: { charges: 'read' } });
      recordSecret(created.secret);
      return created.id;
    };
    ids.restricted_keys = await restrictedKey();
    ids.restricted_key_to_roll = await restrictedKey();
    ids.restricted_key_to_revoke = await restrictedKey();
    // The service's clock stands still from here: the walk takes minutes (half an hour at load 25),
    // and a fixture with a lifetime (the pending PromptPay charge's 15-minute QR) must still be
    // what it was when the walk reaches its operation.
    t.clock.freeze();
    if (PROGRESS) appendFileSync(PROGRESS, `service, browser and fixtures: ${spent(started)}\n`);
    // A limit against hangs, not a speed check: these ~40 fixtures through the API took 53 s at load
    // average 20 and over Jest's default 120 s at 25.
  }, 600_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  /** The tag the "Filter by tag" box of each open page holds (what the walk typed last). */
  const filters = new WeakMap<Page, string>();

  /** Opens /docs and authorizes `scheme` through the Authorize dialog, as a partner does. */
  async function openDocs(scheme: Operation['scheme']): Promise<Page> {
    const page = await browser.newPage();
    await page.goto(`${t.url}/docs`);
    await page.locator('.auth-wrapper button.authorize').click();
    const dialog = page.locator('.dialog-ux .modal-ux');
    const container = dialog.locator('.auth-container').filter({ has: page.locator(`h4:has-text("${scheme}")`) });
    if (scheme === 'secret_key') {
      await container.locator('input[type="text"]').fill(credentials.secret_key);
    } else {
      await container.locator('input').first().fill(credentials[scheme]);
    }
    await container.locator('button.authorize').click();
    await container.locator('button', { hasText: 'Logout' }).waitFor();
    await container.locator('button.btn-done').click();
    await dialog.waitFor({ state: 'detached' });
    return page;
  }

  /** Expands `op`, fills what must change, executes, and returns the status and body the UI shows. */
  async function tryOperation(
    page: Page,
    op: Operation,
  ): Promise<{ status: number; body: string; url: string; requestId: string | null }> {
    const override = OVERRIDES[op.key] ?? {};
    // The "Filter by tag" box: Swagger UI re-renders every operation it shows on each click.
    if (filters.get(page) !== op.tag) {
      await page.locator('.operation-filter-input').fill(op.tag);
      filters.set(page, op.tag);
    }
    const block = page
      .locator(`.opblock-${op.method}`)
      .filter({ has: page.locator(`.opblock-summary-path[data-path="${op.path}"]`) })
      .first();
    await block.locator('.opblock-summary-control').click();
    // The document opens every operation ready to try (tryItOutEnabled): the button reads "Cancel".
    await block.locator('button.try-out__btn.cancel').waitFor();
    const param = (name: string, where: string): Locator =>
      block.locator(`tr[data-param-name="${name}"][data-param-in="${where}"]`).locator('input, select');
    // The `app` field opens holding the document's example; typed only where that is not this application.
    if (op.path.includes('{app}') && (await param('app', 'path').inputValue()) !== tenant.slug) {
      await param('app', 'path').fill(tenant.slug);
    }
    for (const name of op.path.match(/\{(\w+)\}/g) ?? []) {
      if (name === '{app}') continue;
      const given = override.path?.[name.slice(1, -1)];
      if (given !== undefined) {
        const field = param(name.slice(1, -1), 'path');
        if ((await field.evaluate((e) => e.tagName)) === 'SELECT') await field.selectOption(resolve(given, ids));
        else await field.fill(resolve(given, ids));
        continue;
      }
      const segments = op.path.split('/');
      const fixture = override.id ?? segments[segments.indexOf(name) - 1];
      const id = ids[fixture];
      if (!id) throw new Error(`no fixture "${fixture}" for ${op.key}`);
      await param(name.slice(1, -1), 'path').fill(id);
    }
    for (const [name, value] of Object.entries(override.params ?? {})) {
      const field = param(name, 'query');
      if ((await field.evaluate((e) => e.tagName)) === 'SELECT') await field.selectOption(resolve(value, ids));
      else await field.fill(resolve(value, ids));
    }
    const textarea = block.locator('textarea.body-param__text');
    if (await textarea.count()) {
      const example = JSON.parse(await textarea.inputValue()) as unknown;
      const body = withIds(example, { ...BODY_IDS, ...override.body }, ids) as Record<string, unknown>;
      for (const field of override.omit ?? []) delete body[field];
      // Typed only where an id had to change: the example as the document fills it in is sent as is.
      if (JSON.stringify(body) !== JSON.stringify(example)) await textarea.fill(JSON.stringify(body, null, 2));
    }
    for (const [name, file] of Object.entries(override.files ?? {})) {
      await block.locator(`tr[data-property-name="${name}"]`).locator('input[type="file"]').setInputFiles(file);
    }
    for (const [name, value] of Object.entries(override.form ?? {})) {
      const field = block.locator(`tr[data-property-name="${name}"]`).locator('input[type="text"], select');
      if ((await field.evaluate((e) => e.tagName)) === 'SELECT') await field.selectOption(resolve(value, ids));
      else await field.fill(resolve(value, ids));
    }
    // The request the Execute button sends (the document was fetched when the page opened): its request id.
    const response = page.waitForResponse(
      (r) => r.request().method() === op.method.toUpperCase() && !r.url().endsWith('/docs-json'),
    );
    await block.locator('button.execute').click();
    await block.locator('.live-responses-table .response .response-col_status').waitFor();
    const requestId = (await response).headers()['x-request-id'] ?? null;
    // The status, the body and the request URL the UI shows, read in one step (they render together);
    // an HTML body (the sign-in page) has no <pre>.
    const { shown, body, url } = await block.evaluate((el) => {
      const details = el.querySelector('.live-responses-table .response .response-col_description');
      const text = (selector: string, within: typeof details = el) => within?.querySelector(selector)?.textContent;
      return {
        shown: text('.live-responses-table .response .response-col_status')?.trim() ?? '',
        body: (details?.querySelector('pre') ? text('pre', details) : details?.textContent) ?? '',
        url: text('.request-url pre') ?? '',
      };
    });
    await block.locator('.opblock-summary-control').click();
    // "500 Undocumented" for a status the document does not list; text without digits for a network failure.
    const status = Number.parseInt(shown, 10) || 0;
    return { status, body: /^\d+$/.test(shown) ? body : `${shown} ${body}`, url, requestId };
  }

  interface AuditRow {
    action: string;
    target_type: string;
    target_id: string | null;
    actor_type: string;
    actor_id: string | null;
    livemode: boolean | null;
  }

  /**
   * What is wrong with the audit rows of one call (docs/AUDIT.md), or null: a refused or unaudited
   * call wrote none; an audited one wrote its row (action, target from the answer) exactly once,
   * the rows AUDITED_ROUTES says it always writes, no row it does not name, every row with the
   * walk's credential as actor and in test mode.
   */
  async function auditProblem(
    op: Operation,
    result: { status: number; body: string; requestId: string | null },
  ): Promise<string | null> {
    const entry = AUDITED_ROUTES[auditKeyOf(op.method, op.path)];
    if (!entry) return 'no entry in AUDITED_ROUTES (src/common/audit/audited-routes.ts)';
    if (!result.requestId) return 'the answer has no X-Request-Id';
    const rows: AuditRow[] = await t.app
      .get<DataSource>(getDataSourceToken('platform'))
      .query(
        `SELECT action, target_type, target_id, actor_type, actor_id, livemode FROM platform.audit_events WHERE request_id = $1`,
        [result.requestId],
      );
    const seen = rows.map((r) => r.action).sort();
    const succeeded = result.status >= 200 && result.status < 300;
    if (!succeeded || !isAudited(entry)) return rows.length === 0 ? null : `rows ${seen.join(', ')}, expected none`;
    const required: string[] = [entry.action, ...(entry.also ?? [])];
    const may: readonly string[] = entry.may ?? [];
    const missing = required.filter((a) => !seen.includes(a));
    const unexpected = seen.filter((a) => !required.includes(a) && !may.includes(a));
    if (missing.length > 0 || unexpected.length > 0)
      return `rows ${seen.join(', ') || '(none)'}: missing ${missing.join(', ') || '-'}, unexpected ${unexpected.join(', ') || '-'}`;
    const target = targetOf(entry, JSON.parse(result.body) as Record<string, unknown>);
    if (target) {
      const mine = rows.filter(
        (r) => r.action === entry.action && r.target_type === target.type && r.target_id === target.id,
      );
      if (mine.length !== 1)
        return `${mine.length} ${entry.action} rows for ${target.type} ${target.id} (targets: ${rows.map((r) => `${r.target_type} ${r.target_id}`).join(', ')})`;
    }
    const actor = actors[op.scheme];
    const wrong = rows.filter(
      (r) => r.actor_type !== actor.type || (actor.id ? r.actor_id !== actor.id : !r.actor_id) || r.livemode !== false,
    );
    if (wrong.length > 0)
      return `rows not by ${actor.type} ${actor.id ?? ''} in test mode: ${JSON.stringify(wrong).slice(0, 300)}`;
    return null;
  }

  /** The target a call's own row names: from its answer (`object` and `id`, or the entry's fields). */
  function targetOf(entry: RouteAudit, answer: Record<string, unknown>): { type: string; id: string } | null {
    if (entry.target === 'rows') return null;
    const path = (entry.target?.id ?? 'id').split('.');
    const id = path.reduce<unknown>((value, field) => (value as Record<string, unknown> | undefined)?.[field], answer);
    return { type: entry.target?.type ?? String(answer.object), id: String(id) };
  }

  it('executes every operation of /docs-json with its examples and gets its documented response', async () => {
    const doc = (await t.http.get('/docs-json')).body;
    const all = operationsOf(doc);
    expect(all.length).toBeGreaterThan(50);
    const ops = ONLY ? all.filter((op) => ONLY.test(op.key)) : all;
    const failures: string[] = [];
    const auditFailures: string[] = [];
    let auditMs = 0;
    // One page per credential: opened and authorized once, every operation of that scheme tried on it
    // (each expanded in place and collapsed again after its response was read).
    for (const scheme of ['secret_key', 'bearer', 'session'] as const) {
      const mine = ops.filter((op) => op.scheme === scheme);
      if (mine.length === 0) continue;
      let started = mark();
      let page = await openDocs(scheme);
      if (PROGRESS) appendFileSync(PROGRESS, `open /docs (${scheme}): ${spent(started)}\n`);
      for (const [n, op] of mine.entries()) {
        if (n > 0 && n % REOPEN_EVERY === 0) {
          await page.close();
          started = mark();
          page = await openDocs(scheme);
          if (PROGRESS) appendFileSync(PROGRESS, `open /docs again (${scheme}): ${spent(started)}\n`);
        }
        let result: Awaited<ReturnType<typeof tryOperation>>;
        started = mark();
        try {
          result = await tryOperation(page, op);
        } catch (error) {
          failures.push(`${op.label}: ${(error as Error).message.split('\n')[0]}`);
          if (PROGRESS) appendFileSync(PROGRESS, `${failures.at(-1)}\n`);
          continue;
        }
        const expected = OVERRIDES[op.key]?.expect;
        const line = `${op.label} -> ${result.status}`;
        if (PROGRESS) appendFileSync(PROGRESS, `${line} (${spent(started)})\n`);
        const documented = op.responses.includes(String(result.status));
        let ok =
          documented && (expected ? result.status === expected.status : result.status >= 200 && result.status < 300);
        if (ok && expected) ok = (JSON.parse(result.body) as { code?: string }).code === expected.code;
        if (op.method !== 'get') {
          const checking = performance.now();
          const problem = await auditProblem(op, result);
          auditMs += performance.now() - checking;
          if (problem) auditFailures.push(`${op.label} -> ${result.status}: ${problem}`);
          if (problem && PROGRESS) appendFileSync(PROGRESS, `audit: ${auditFailures.at(-1)}\n`);
        }
        if (!ok)
          failures.push(`${line} (documented: ${op.responses.join(',')}) ${result.url}: ${result.body.slice(0, 300)}`);
      }
      await page.close();
    }
    if (PROGRESS) appendFileSync(PROGRESS, `audit checks: ${Math.round(auditMs)} ms\n`);
    expect(failures).toEqual([]);
    expect(auditFailures).toEqual([]);
    // A limit against hangs, not a speed check: ~100 operations at 3-5 s each of Chromium CPU, 5-10 s
    // wall-clock on a loaded 2-core machine and over 20 s at load average 25 (where 30 minutes ran out
    // after 82 operations).
  }, 3_600_000);
});
