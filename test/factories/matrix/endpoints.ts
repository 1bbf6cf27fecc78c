import type { Mode } from '../../../src/common/context/principal.js';
import { ApiKeysService } from '../../../src/modules/applications/index.js';
import type { Tenant, TestApp } from '../../support/harness.js';
import { recordSecret } from '../../support/secrets.js';
import { subscriptionEndpoints } from './subscriptions.js';
import { billingEndpoints } from './billing.js';
import { checkoutSessions, checkoutSessionsWithToken, collectionRecords } from './checkout.js';
import { MATRIX_WEBHOOK_URL, eventRecords } from './events.js';
import { ledgerRecords } from './ledger.js';
import { MATRIX_METER_EVENT, meterRecords } from './meter.js';
import { bankAccountIntentSessions, payoutLifecycleRecords, payoutRecords } from './payouts.js';

/**
 * Every endpoint × every credential kind, with the exact status and code expected. To cover a new
 * endpoint add a row to ENDPOINTS (the `expect` record must name every credential: the type says so);
 * credential-matrix-fence.e2e-spec.ts fails on any documented operation without a row or an entry
 * in EXEMPT. A row's name is `METHOD /path` relative to the wallet base (`:id` for `{id}`); a row for
 * a route outside the base names its documented path in `documented`.
 * A row whose endpoint needs records of its own (a checkout, an intent) creates them in `setup`,
 * which runs before the clock is moved; it may return the sessions to use for that row, e.g.
 *
 *   setup: async (t, f) => {
 *     const checkout = (await t.http.post(f.tenant.path('/checkouts')).set(f.tenant.as('test')).send({...})).body;
 *     const other = ...;  // a second checkout
 *     return { ids: { checkout: checkout.id }, sessions: { right: checkout.session, otherTarget: other.session,
 *              expired: (await issueSession(t, f.tenant, { purpose: 'checkout', targetId: checkout.id, ttlSeconds: 60 })).token } };
 *   },
 *   path: (f, _mode, row) => f.tenant.path(`/checkouts/${row.ids.checkout}`),
 */

export const CREDENTIALS = [
  'none',
  'bad Basic',
  'test key',
  'live key',
  "other app's key",
  'bad bearer',
  'user member',
  'user non-member',
  'superuser',
  'session, right target',
  'session, other target',
  'session, other app',
  'session, expired',
] as const;
export type Credential = (typeof CREDENTIALS)[number];
/** 200 for success, else the error code (its HTTP status comes from the catalog). */
export type Outcome = 200 | `E${number}`;

export interface Fixtures {
  tenant: Tenant;
  other: Tenant;
  bearer: Record<'member' | 'nonMember' | 'superuser', string>;
  sessions: Record<'right' | 'otherTarget' | 'otherApp' | 'expired', string>;
  customers: Record<Mode, string>;
  /** The target id a "right target" session is bound to. */
  targetId: string;
}

/** What a row's `setup` made: ids for its path, and sessions replacing the shared ones. */
export interface RowFixtures {
  ids: Record<string, string>;
  sessions?: Partial<Fixtures['sessions']>;
}

export interface EndpointCase {
  name: string;
  method: 'get' | 'post' | 'delete';
  /** The OpenAPI path of a route outside the wallet base; the name's path is relative to the base otherwise. */
  documented?: string;
  path(f: Fixtures, mode: Mode, row: RowFixtures): string;
  body?: object | ((f: Fixtures, mode: Mode, row: RowFixtures) => object);
  /** Sessions with a ttl of at most 60 s are expired by the clock move after every setup. */
  setup?(t: TestApp, f: Fixtures): Promise<RowFixtures>;
  expect: Record<Credential, Outcome>;
}

const KEY_OR_USER: Record<Credential, Outcome> = {
  none: 'E1213',
  'bad Basic': 'E1211',
  'test key': 200,
  'live key': 200,
  "other app's key": 'E1300',
  'bad bearer': 'E1210',
  'user member': 200,
  'user non-member': 'E1300',
  superuser: 200,
  'session, right target': 'E1200',
  'session, other target': 'E1200',
  'session, other app': 'E1200',
  'session, expired': 'E1200',
};

/** An endpoint for bearer tokens only: keys (secret, restricted) and sessions are E1200. */
const BEARER_ONLY: Record<Credential, Outcome> = {
  ...KEY_OR_USER,
  'bad Basic': 'E1200',
  'test key': 'E1200',
  'live key': 'E1200',
  "other app's key": 'E1200',
};

/** A test-mode restricted key of `tenant` (made through the service the API and CLI use): its id. */
async function restrictedKeyOf(t: TestApp, tenant: Tenant): Promise<string> {
  const created = await t.app
    .get(ApiKeysService)
    .createRestrictedKey(tenant.applicationId, 'test', { name: 'Matrix', permissions: { charges: 'read' } });
  recordSecret(created.secret);
  return created.id;
}

let metersCreated = 0;

const UNKNOWN_ID = '0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b';

/** An endpoint that accepts only a one-time session: every other credential kind is E1200. */
const SESSION_ONLY: Record<Credential, Outcome> = {
  none: 'E1213',
  'bad Basic': 'E1200',
  'test key': 'E1200',
  'live key': 'E1200',
  "other app's key": 'E1200',
  'bad bearer': 'E1200',
  'user member': 'E1200',
  'user non-member': 'E1200',
  superuser: 'E1200',
  'session, right target': 200,
  'session, other target': 200,
  'session, other app': 200,
  'session, expired': 200,
};

/** A provider webhook reads no credential; without the provider's keys every caller gets E5203. */
const NO_CREDENTIAL_READ: Record<Credential, Outcome> = {
  none: 'E5203',
  'bad Basic': 'E5203',
  'test key': 'E5203',
  'live key': 'E5203',
  "other app's key": 'E5203',
  'bad bearer': 'E5203',
  'user member': 'E5203',
  'user non-member': 'E5203',
  superuser: 'E5203',
  'session, right target': 'E5203',
  'session, other target': 'E5203',
  'session, other app': 'E5203',
  'session, expired': 'E5203',
};

export const ENDPOINTS: EndpointCase[] = [
  {
    name: 'GET /errors/catalog',
    method: 'get',
    path: (f) => f.tenant.path('/errors/catalog'),
    expect: {
      ...KEY_OR_USER,
      'session, right target': 200,
      'session, other target': 200,
      'session, other app': 'E1300',
      'session, expired': 'E1212',
    },
  },
  {
    name: 'POST /customers',
    method: 'post',
    path: (f) => f.tenant.path('/customers'),
    body: { name: 'Matrix' },
    expect: KEY_OR_USER,
  },
  { name: 'GET /customers', method: 'get', path: (f) => f.tenant.path('/customers'), expect: KEY_OR_USER },
  {
    name: 'GET /customers/:id',
    method: 'get',
    path: (f, mode) => f.tenant.path(`/customers/${f.customers[mode]}`),
    expect: KEY_OR_USER,
  },
  {
    name: 'POST /customers/:id',
    method: 'post',
    path: (f, mode) => f.tenant.path(`/customers/${f.customers[mode]}`),
    body: { name: 'Matrix renamed' },
    expect: KEY_OR_USER,
  },
  {
    name: 'GET /customers/:id/payment_methods',
    method: 'get',
    path: (f, mode) => f.tenant.path(`/customers/${f.customers[mode]}/payment_methods`),
    expect: KEY_OR_USER,
  },
  ...(
    [
      ['GET /payment_methods/:id', 'get', `/payment_methods/${UNKNOWN_ID}`],
      ['POST /payment_methods/:id/detach', 'post', `/payment_methods/${UNKNOWN_ID}/detach`],
    ] as const
  ).map(([name, method, path]): EndpointCase => ({
    name,
    method,
    path: (f) => f.tenant.path(path),
    expect: { ...KEY_OR_USER, 'test key': 'E4004', 'live key': 'E4004', 'user member': 'E4004', superuser: 'E4004' },
  })),
  // Prepaid credit (docs/BILLING.md, "Prepaid credit"): the customer's own list, then records that do not exist.
  {
    name: 'GET /customers/:customer_id/credit_grants',
    method: 'get',
    path: (f, mode) => f.tenant.path(`/customers/${f.customers[mode]}/credit_grants`),
    expect: KEY_OR_USER,
  },
  {
    name: 'POST /customers/:customer_id/credit_grants',
    method: 'post',
    path: (f) => f.tenant.path(`/customers/${UNKNOWN_ID}/credit_grants`),
    body: { amount: 1000, currency: 'THB' },
    expect: { ...KEY_OR_USER, 'test key': 'E7880', 'live key': 'E7880', 'user member': 'E7880', superuser: 'E7880' },
  },
  ...(
    [
      ['GET /credit_grants/:id', 'get', `/credit_grants/${UNKNOWN_ID}`, undefined],
      ['POST /credit_grants/:id/void', 'post', `/credit_grants/${UNKNOWN_ID}/void`, undefined],
      ['POST /meters/:id', 'post', `/meters/${UNKNOWN_ID}`, { display_name: 'Matrix' }],
    ] as const
  ).map(([name, method, path, body]): EndpointCase => ({
    name,
    method,
    path: (f) => f.tenant.path(path),
    ...(body ? { body } : {}),
    expect: { ...KEY_OR_USER, 'test key': 'E4004', 'live key': 'E4004', 'user member': 'E4004', superuser: 'E4004' },
  })),
  // A JSON body has no file part: every allowed caller reaches the handler and gets E5300.
  {
    name: 'POST /files',
    method: 'post',
    path: (f) => f.tenant.path('/files'),
    body: { purpose: 'dispute_evidence' },
    expect: { ...KEY_OR_USER, 'test key': 'E5300', 'live key': 'E5300', 'user member': 'E5300', superuser: 'E5300' },
  },
  { name: 'GET /files', method: 'get', path: (f) => f.tenant.path('/files'), expect: KEY_OR_USER },
  ...(
    [
      ['GET /files/:id', `/files/${UNKNOWN_ID}`],
      ['GET /files/:id/contents', `/files/${UNKNOWN_ID}/contents`],
    ] as const
  ).map(([name, path]): EndpointCase => ({
    name,
    method: 'get',
    path: (f) => f.tenant.path(path),
    expect: { ...KEY_OR_USER, 'test key': 'E4004', 'live key': 'E4004', 'user member': 'E4004', superuser: 'E4004' },
  })),
  { name: 'GET /balances', method: 'get', path: (f) => f.tenant.path('/balances'), expect: KEY_OR_USER },
  {
    name: 'GET /balance_transactions',
    method: 'get',
    path: (f) => f.tenant.path('/balance_transactions'),
    expect: KEY_OR_USER,
  },
  { name: 'GET /disputes', method: 'get', path: (f) => f.tenant.path('/disputes'), expect: KEY_OR_USER },
  { name: 'GET /events', method: 'get', path: (f) => f.tenant.path('/events'), expect: KEY_OR_USER },
  {
    name: 'GET /webhook_endpoints',
    method: 'get',
    path: (f) => f.tenant.path('/webhook_endpoints'),
    expect: KEY_OR_USER,
  },
  {
    name: 'POST /webhook_endpoints',
    method: 'post',
    path: (f) => f.tenant.path('/webhook_endpoints'),
    body: (_f, mode) => ({ url: MATRIX_WEBHOOK_URL[mode], enabled_events: ['checkout.completed'] }),
    expect: KEY_OR_USER,
  },
  ...(
    [
      ['GET /events/:id', 'get', (ids, mode) => `/events/${ids[`event_${mode}`]}`],
      ['GET /events/:id/deliveries', 'get', (ids, mode) => `/events/${ids[`event_${mode}`]}/deliveries`],
      ['POST /events/:id/resend', 'post', (ids, mode) => `/events/${ids[`event_${mode}`]}/resend`],
      ['GET /webhook_endpoints/:id', 'get', (ids, mode) => `/webhook_endpoints/${ids[`endpoint_${mode}`]}`],
      ['POST /webhook_endpoints/:id', 'post', (ids, mode) => `/webhook_endpoints/${ids[`endpoint_${mode}`]}`],
      [
        'POST /webhook_endpoints/:id/rotate_secret',
        'post',
        (ids, mode) => `/webhook_endpoints/${ids[`endpoint_${mode}`]}/rotate_secret`,
      ],
      [
        'GET /webhook_endpoints/:id/deliveries',
        'get',
        (ids, mode) => `/webhook_endpoints/${ids[`endpoint_${mode}`]}/deliveries`,
      ],
    ] as Array<[string, 'get' | 'post', (ids: Record<string, string>, mode: Mode) => string]>
  ).map(([name, method, path]): EndpointCase => ({
    name,
    method,
    setup: async (t, f) => ({ ids: await eventRecords(t, f.tenant) }),
    path: (f, mode, row) => f.tenant.path(path(row.ids, mode)),
    ...(method === 'post' ? { body: name.endsWith(':id') ? { description: 'matrix' } : {} } : {}),
    expect: KEY_OR_USER,
  })),
  {
    // An unknown endpoint: authorized callers reach the handler (E4004).
    name: 'DELETE /webhook_endpoints/:id',
    method: 'delete',
    path: (f) => f.tenant.path(`/webhook_endpoints/${UNKNOWN_ID}`),
    expect: { ...KEY_OR_USER, 'test key': 'E4004', 'live key': 'E4004', 'user member': 'E4004', superuser: 'E4004' },
  },
  ...(['balances', 'balance_transactions', 'disputes'] as const).map((list): EndpointCase => ({
    name: `GET /${list}/:id`,
    method: 'get',
    setup: async (t, f) => ({ ids: await ledgerRecords(t, f.tenant) }),
    path: (f, mode, row) =>
      f.tenant.path(
        `/${list}/${row.ids[`${{ balances: 'balance', balance_transactions: 'entry', disputes: 'dispute' }[list]}_${mode}`]}`,
      ),
    expect: KEY_OR_USER,
  })),
  {
    // A statement of each mode's balance as of a past moment: every allowed credential gets 200.
    name: 'POST /balances/:id/statements',
    method: 'post',
    setup: async (t, f) => ({ ids: await ledgerRecords(t, f.tenant) }),
    path: (f, mode, row) => f.tenant.path(`/balances/${row.ids[`balance_${mode}`]}/statements`),
    body: { as_of: '2026-11-01T00:00:00Z' },
    expect: KEY_OR_USER,
  },
  {
    // An unknown statement of each mode's balance: authorized callers reach the handler (E4004).
    name: 'GET /balances/:id/statements/:statement_id',
    method: 'get',
    setup: async (t, f) => ({ ids: await ledgerRecords(t, f.tenant) }),
    path: (f, mode, row) => f.tenant.path(`/balances/${row.ids[`balance_${mode}`]}/statements/${UNKNOWN_ID}`),
    expect: { ...KEY_OR_USER, 'test key': 'E4004', 'live key': 'E4004', 'user member': 'E4004', superuser: 'E4004' },
  },
  {
    // An unknown charge: authorized test-mode callers reach the handler (E4004); live mode has no test helpers.
    name: 'POST /test_helpers/disputes',
    method: 'post',
    path: (f) => f.tenant.path('/test_helpers/disputes'),
    body: { charge_id: '0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b' },
    expect: { ...KEY_OR_USER, 'test key': 'E4004', 'live key': 'E4040', 'user member': 'E4004', superuser: 'E4004' },
  },
  {
    // Saving evidence on a dispute of each mode (no due date): every allowed credential gets 200.
    name: 'POST /disputes/:id',
    method: 'post',
    setup: async (t, f) => ({ ids: await ledgerRecords(t, f.tenant) }),
    path: (f, mode, row) => f.tenant.path(`/disputes/${row.ids[`dispute_${mode}`]}`),
    body: { evidence: { product_description: 'matrix' }, metadata: { matrix: '1' } },
    expect: KEY_OR_USER,
  },
  {
    // An unknown dispute: authorized callers reach the handler (E4004).
    name: 'POST /disputes/:id/close',
    method: 'post',
    path: (f) => f.tenant.path(`/disputes/${UNKNOWN_ID}/close`),
    expect: { ...KEY_OR_USER, 'test key': 'E4004', 'live key': 'E4004', 'user member': 'E4004', superuser: 'E4004' },
  },
  ...(['win', 'lose'] as const).map((decision): EndpointCase => ({
    // Test helpers: test mode reaches the handler (unknown dispute: E4004); live mode has none (E4040).
    name: `POST /test_helpers/disputes/:id/${decision}`,
    method: 'post',
    path: (f) => f.tenant.path(`/test_helpers/disputes/${UNKNOWN_ID}/${decision}`),
    expect: { ...KEY_OR_USER, 'test key': 'E4004', 'live key': 'E4040', 'user member': 'E4004', superuser: 'E4004' },
  })),
  {
    name: 'GET /reporting/report_runs',
    method: 'get',
    path: (f) => f.tenant.path('/reporting/report_runs'),
    expect: KEY_OR_USER,
  },
  {
    // An unknown report run: authorized callers reach the handler (E4004).
    name: 'GET /reporting/report_runs/:id',
    method: 'get',
    path: (f) => f.tenant.path(`/reporting/report_runs/${UNKNOWN_ID}`),
    expect: { ...KEY_OR_USER, 'test key': 'E4004', 'live key': 'E4004', 'user member': 'E4004', superuser: 'E4004' },
  },
  {
    // An interval that ends before it starts: authorized callers reach the service (E7900) and no run is made.
    name: 'POST /reporting/report_runs',
    method: 'post',
    path: (f) => f.tenant.path('/reporting/report_runs'),
    body: {
      report_type: 'balance.summary.1',
      parameters: { interval_start: '2026-11-02T00:00:00Z', interval_end: '2026-11-01T00:00:00Z' },
    },
    expect: { ...KEY_OR_USER, 'test key': 'E7900', 'live key': 'E7900', 'user member': 'E7900', superuser: 'E7900' },
  },
  {
    name: 'GET /reconciliation_runs',
    method: 'get',
    path: (f) => f.tenant.path('/reconciliation_runs'),
    expect: KEY_OR_USER,
  },
  {
    // An unknown reconciliation run: authorized callers reach the handler (E4004).
    name: 'GET /reconciliation_runs/:id',
    method: 'get',
    path: (f) => f.tenant.path(`/reconciliation_runs/${UNKNOWN_ID}`),
    expect: { ...KEY_OR_USER, 'test key': 'E4004', 'live key': 'E4004', 'user member': 'E4004', superuser: 'E4004' },
  },
  {
    // The items of an unknown run: authorized callers reach the handler (E4004).
    name: 'GET /reconciliation_runs/:id/items',
    method: 'get',
    path: (f) => f.tenant.path(`/reconciliation_runs/${UNKNOWN_ID}/items`),
    expect: { ...KEY_OR_USER, 'test key': 'E4004', 'live key': 'E4004', 'user member': 'E4004', superuser: 'E4004' },
  },
  {
    // A provider with no settlements in the mode: authorized callers reach the service (E7960) and no run is made.
    name: 'POST /reconciliation_runs',
    method: 'post',
    path: (f) => f.tenant.path('/reconciliation_runs'),
    body: { provider: 'unknown_provider', payout: 'po_matrix' },
    expect: { ...KEY_OR_USER, 'test key': 'E7960', 'live key': 'E7960', 'user member': 'E7960', superuser: 'E7960' },
  },
  { name: 'GET /refunds', method: 'get', path: (f) => f.tenant.path('/refunds'), expect: KEY_OR_USER },
  {
    // An unknown refund: authorized callers reach the handler (E4004).
    name: 'GET /refunds/:id',
    method: 'get',
    path: (f) => f.tenant.path(`/refunds/${UNKNOWN_ID}`),
    expect: { ...KEY_OR_USER, 'test key': 'E4004', 'live key': 'E4004', 'user member': 'E4004', superuser: 'E4004' },
  },
  {
    // An unknown charge: authorized callers reach the handler (E4004) and nothing is refunded.
    name: 'POST /refunds',
    method: 'post',
    path: (f) => f.tenant.path('/refunds'),
    body: { charge_id: UNKNOWN_ID },
    expect: { ...KEY_OR_USER, 'test key': 'E4004', 'live key': 'E4004', 'user member': 'E4004', superuser: 'E4004' },
  },
  {
    // An unknown refund: authorized test-mode callers reach the handler (E4004); live mode has no test helpers.
    name: 'POST /test_helpers/refunds/:id/settle',
    method: 'post',
    path: (f) => f.tenant.path(`/test_helpers/refunds/${UNKNOWN_ID}/settle`),
    expect: { ...KEY_OR_USER, 'test key': 'E4004', 'live key': 'E4040', 'user member': 'E4004', superuser: 'E4004' },
  },
  ...(['payment_intents', 'invoices', 'checkouts', 'charges', 'payment_links'] as const).flatMap(
    (resource): EndpointCase[] => [
      { name: `GET /${resource}`, method: 'get', path: (f) => f.tenant.path(`/${resource}`), expect: KEY_OR_USER },
      {
        name: `GET /${resource}/:id`,
        method: 'get',
        setup: async (t, f) => ({ ids: await collectionRecords(t, f.tenant) }),
        path: (f, mode, row) =>
          f.tenant.path(
            `/${resource}/${row.ids[`${{ payment_intents: 'intent', invoices: 'invoice', checkouts: 'checkout', charges: 'charge', payment_links: 'link' }[resource]}_${mode}`]}`,
          ),
        expect: KEY_OR_USER,
      },
    ],
  ),
  {
    name: 'POST /payment_intents',
    method: 'post',
    path: (f) => f.tenant.path('/payment_intents'),
    body: { amount: 10000, currency: 'THB' },
    expect: KEY_OR_USER,
  },
  ...(
    [
      // Bodies naming records that do not exist: authorized callers reach the handler and get its code.
      [
        'POST /invoices',
        '/invoices',
        { customer_id: UNKNOWN_ID, currency: 'THB', line_items: [{ description: 'x', amount: 100 }] },
        'E7014',
      ],
      ['POST /checkouts', '/checkouts', { target_type: 'payment_intent', target_id: UNKNOWN_ID }, 'E7001'],
      ['POST /payment_links', '/payment_links', { target_type: 'invoice', target_id: UNKNOWN_ID }, 'E7001'],
      ['POST /payment_intents/:id/cancel', `/payment_intents/${UNKNOWN_ID}/cancel`, {}, 'E4004'],
      ['POST /payment_intents/:id/capture', `/payment_intents/${UNKNOWN_ID}/capture`, {}, 'E4004'],
      ['POST /invoices/:id/finalize', `/invoices/${UNKNOWN_ID}/finalize`, {}, 'E4004'],
      ['POST /invoices/:id/void', `/invoices/${UNKNOWN_ID}/void`, {}, 'E4004'],
      ['POST /payment_links/:id/deactivate', `/payment_links/${UNKNOWN_ID}/deactivate`, {}, 'E4004'],
    ] as const
  ).map(([name, path, body, code]): EndpointCase => ({
    name,
    method: 'post',
    path: (f) => f.tenant.path(path),
    body,
    expect: { ...KEY_OR_USER, 'test key': code, 'live key': code, 'user member': code, superuser: code },
  })),
  {
    // Test helpers: test mode reaches the handler (unknown checkout: E4004); live mode has none (E4040).
    name: 'POST /test_helpers/checkouts/:id/expire',
    method: 'post',
    path: (f) => f.tenant.path(`/test_helpers/checkouts/${UNKNOWN_ID}/expire`),
    expect: { ...KEY_OR_USER, 'test key': 'E4004', 'live key': 'E4040', 'user member': 'E4004', superuser: 'E4004' },
  },
  {
    // Test helper: test mode reaches the handler (unknown endpoint: E4004); live mode has none (E4040).
    name: 'POST /test_helpers/webhook_endpoints/:id/disable',
    method: 'post',
    path: (f) => f.tenant.path(`/test_helpers/webhook_endpoints/${UNKNOWN_ID}/disable`),
    expect: { ...KEY_OR_USER, 'test key': 'E4004', 'live key': 'E4040', 'user member': 'E4004', superuser: 'E4004' },
  },
  {
    // Test helper: test mode reaches the handler (unknown intent: E4004); live mode has none (E4040).
    name: 'POST /test_helpers/payment_intents/:id/expire_authorization',
    method: 'post',
    path: (f) => f.tenant.path(`/test_helpers/payment_intents/${UNKNOWN_ID}/expire_authorization`),
    expect: { ...KEY_OR_USER, 'test key': 'E4004', 'live key': 'E4040', 'user member': 'E4004', superuser: 'E4004' },
  },
  {
    name: 'POST /test_helpers/holds/release',
    method: 'post',
    path: (f) => f.tenant.path('/test_helpers/holds/release'),
    expect: { ...KEY_OR_USER, 'live key': 'E4040' },
  },
  {
    // The hosted page's endpoint: only the checkout's own session (a declined card keeps it usable).
    name: 'POST /checkouts/:id/confirm',
    method: 'post',
    setup: (t, f) => checkoutSessionsWithToken(t, f.tenant),
    path: (f, _mode, row) => f.tenant.path(`/checkouts/${row.ids.checkout}/confirm`),
    // A declined card's vault token: only the right session reaches it (and uses it up).
    body: (_f, _mode, row) => ({ payment_method_type: 'card', token: row.ids.token }),
    expect: {
      ...SESSION_ONLY,
      'session, right target': 200,
      'session, other target': 'E1300',
      'session, other app': 'E1300',
      'session, expired': 'E1212',
    },
  },
  {
    // The test-mode card vault (outside the payment API's base path): any checkout's own session
    // tokenizes, for its checkout; nothing else does. Live mode has no vault (see card-tokens.e2e-spec.ts).
    name: 'POST /api/v1/{app}/vault/tokens',
    method: 'post',
    documented: '/api/v1/{app}/vault/tokens',
    setup: (t, f) => checkoutSessions(t, f.tenant),
    path: (f) => `/api/v1/${f.tenant.slug}/vault/tokens`,
    body: { card: { number: '4000000000000002', exp_month: 12, exp_year: 2099, cvc: '123' } },
    expect: {
      ...SESSION_ONLY,
      'session, right target': 200,
      'session, other target': 200,
      'session, other app': 'E1300',
      'session, expired': 'E1212',
    },
  },
  {
    // Merchant or hosted page; the checkout has no pending PromptPay charge, so allowed callers get E7018.
    name: 'POST /test_helpers/checkouts/:id/pay_promptpay',
    method: 'post',
    setup: (t, f) => checkoutSessions(t, f.tenant),
    path: (f, _mode, row) => f.tenant.path(`/test_helpers/checkouts/${row.ids.checkout}/pay_promptpay`),
    expect: {
      ...KEY_OR_USER,
      'test key': 'E7018',
      'live key': 'E4040',
      'user member': 'E7018',
      superuser: 'E7018',
      'session, right target': 'E7018',
      'session, other target': 'E1300',
      'session, other app': 'E1300',
      'session, expired': 'E1212',
    },
  },
  ...(['succeed', 'fail'] as const).map((outcome): EndpointCase => ({
    // Merchant or hosted page; an unknown charge: allowed test-mode callers reach the handler (E4004).
    name: `POST /test_helpers/charges/:id/${outcome}`,
    method: 'post',
    setup: (t, f) => checkoutSessions(t, f.tenant),
    path: (f) => f.tenant.path(`/test_helpers/charges/${UNKNOWN_ID}/${outcome}`),
    expect: {
      ...KEY_OR_USER,
      'test key': 'E4004',
      'live key': 'E4040',
      'user member': 'E4004',
      superuser: 'E4004',
      'session, right target': 'E4004',
      'session, other target': 'E4004',
      'session, other app': 'E1300',
      'session, expired': 'E1212',
    },
  })),
  {
    name: 'POST /accounts',
    method: 'post',
    path: (f) => f.tenant.path('/accounts'),
    body: { name: 'Matrix' },
    expect: KEY_OR_USER,
  },
  { name: 'GET /accounts', method: 'get', path: (f) => f.tenant.path('/accounts'), expect: KEY_OR_USER },
  {
    name: 'GET /accounts/:id',
    method: 'get',
    setup: async (t, f) => ({ ids: await payoutRecords(t, f.tenant) }),
    path: (f, mode, row) => f.tenant.path(`/accounts/${row.ids[`account_${mode}`]}`),
    expect: KEY_OR_USER,
  },
  ...(['verify', 'reject'] as const).map((action): EndpointCase => ({
    // Test helpers: test mode reaches the handler (unknown account: E4004); live mode has none (E4040).
    name: `POST /test_helpers/accounts/:id/${action}`,
    method: 'post',
    path: (f) => f.tenant.path(`/test_helpers/accounts/${UNKNOWN_ID}/${action}`),
    expect: { ...KEY_OR_USER, 'test key': 'E4004', 'live key': 'E4040', 'user member': 'E4004', superuser: 'E4004' },
  })),
  {
    // Keys and users create one for the own account of their mode; a session only for its intent's account.
    name: 'POST /bank_accounts',
    method: 'post',
    setup: (t, f) => bankAccountIntentSessions(t, f.tenant, f.other),
    path: (f) => f.tenant.path('/bank_accounts'),
    body: (_f, mode, row) => ({
      account: row.ids[`account_${mode}`],
      type: 'promptpay_phone',
      account_holder_name: 'Matrix',
      phone_number: '0812345678',
    }),
    expect: {
      ...KEY_OR_USER,
      'session, right target': 200,
      'session, other target': 'E1300',
      'session, other app': 'E1300',
      'session, expired': 'E1212',
    },
  },
  {
    name: 'POST /payouts',
    method: 'post',
    setup: async (t, f) => ({ ids: await payoutLifecycleRecords(t, f.tenant) }),
    path: (f) => f.tenant.path('/payouts'),
    body: (_f, mode, row) => ({ amount: 100, currency: 'THB', destination: row.ids[`bank_account_${mode}`] }),
    expect: KEY_OR_USER,
  },
  { name: 'GET /payouts', method: 'get', path: (f) => f.tenant.path('/payouts'), expect: KEY_OR_USER },
  {
    name: 'GET /payouts/:id',
    method: 'get',
    setup: async (t, f) => ({ ids: await payoutLifecycleRecords(t, f.tenant) }),
    path: (f, mode, row) => f.tenant.path(`/payouts/${row.ids[`payout_${mode}`]}`),
    expect: KEY_OR_USER,
  },
  {
    // A payout in transit: authorized callers reach the state machine (only pending payouts cancel).
    name: 'POST /payouts/:id/cancel',
    method: 'post',
    setup: async (t, f) => ({ ids: await payoutLifecycleRecords(t, f.tenant) }),
    path: (f, mode, row) => f.tenant.path(`/payouts/${row.ids[`payout_${mode}`]}/cancel`),
    expect: { ...KEY_OR_USER, 'test key': 'E6305', 'live key': 'E6305', 'user member': 'E6305', superuser: 'E6305' },
  },
  ...(['paid', 'fail'] as const).map((outcome): EndpointCase => ({
    // A paid payout: authorized test-mode callers reach the state machine; live mode has no test helpers.
    name: `POST /test_helpers/payouts/:id/${outcome}`,
    method: 'post',
    setup: async (t, f) => ({ ids: await payoutLifecycleRecords(t, f.tenant) }),
    path: (f, mode, row) => f.tenant.path(`/test_helpers/payouts/${row.ids[`paid_payout_${mode}`]}/${outcome}`),
    expect: { ...KEY_OR_USER, 'test key': 'E6305', 'live key': 'E4040', 'user member': 'E6305', superuser: 'E6305' },
  })),
  {
    name: 'POST /payout_schedules',
    method: 'post',
    path: (f) => f.tenant.path('/payout_schedules'),
    body: { interval: 'manual' },
    expect: KEY_OR_USER,
  },
  {
    name: 'GET /payout_schedules/:account',
    method: 'get',
    setup: async (t, f) => ({ ids: await payoutRecords(t, f.tenant) }),
    path: (f, mode, row) => f.tenant.path(`/payout_schedules/${row.ids[`account_${mode}`]}`),
    expect: KEY_OR_USER,
  },
  { name: 'GET /bank_accounts', method: 'get', path: (f) => f.tenant.path('/bank_accounts'), expect: KEY_OR_USER },
  {
    name: 'GET /bank_accounts/:id',
    method: 'get',
    setup: async (t, f) => ({ ids: await payoutRecords(t, f.tenant) }),
    path: (f, mode, row) => f.tenant.path(`/bank_accounts/${row.ids[`bank_account_${mode}`]}`),
    expect: KEY_OR_USER,
  },
  {
    name: 'POST /bank_account_intents',
    method: 'post',
    setup: async (t, f) => ({ ids: await payoutRecords(t, f.tenant) }),
    path: (f) => f.tenant.path('/bank_account_intents'),
    body: (_f, mode, row) => ({
      account: row.ids[`account_${mode}`],
      return_url: 'https://partner.example/done',
      refresh_url: 'https://partner.example/refresh',
    }),
    expect: KEY_OR_USER,
  },
  {
    name: 'GET /bank_account_intents/:id',
    method: 'get',
    setup: async (t, f) => ({ ids: await payoutRecords(t, f.tenant) }),
    path: (f, mode, row) => f.tenant.path(`/bank_account_intents/${row.ids[`intent_${mode}`]}`),
    expect: KEY_OR_USER,
  },
  { name: 'GET /meters', method: 'get', path: (f) => f.tenant.path('/meters'), expect: KEY_OR_USER },
  {
    // A new event name per call: every allowed credential creates a meter of its own.
    name: 'POST /meters',
    method: 'post',
    path: (f) => f.tenant.path('/meters'),
    body: () => ({
      display_name: 'Matrix',
      event_name: `matrix_meter_${++metersCreated}`,
      value_settings: { event_payload_key: 'calls' },
    }),
    expect: KEY_OR_USER,
  },
  ...(
    [
      ['GET /meters/:id', 'get', (ids, mode) => `/meters/${ids[`meter_${mode}`]}`],
      ['POST /meters/:id/deactivate', 'post', (ids, mode) => `/meters/${ids[`meter_${mode}`]}/deactivate`],
      [
        'GET /meters/:id/event_summaries',
        'get',
        (ids, mode) =>
          `/meters/${ids[`meter_${mode}`]}/event_summaries?customer_id=${ids[`customer_${mode}`]}` +
          '&start_time=2026-01-01T00:00:00Z&end_time=2026-01-02T00:00:00Z&value_grouping_window=hour',
      ],
      ['GET /meter_events/:id', 'get', (ids, mode) => `/meter_events/${ids[`meter_event_${mode}`]}`],
    ] as Array<[string, 'get' | 'post', (ids: Record<string, string>, mode: Mode) => string]>
  ).map(([name, method, path]): EndpointCase => ({
    name,
    method,
    setup: async (t, f) => ({ ids: await meterRecords(t, f.tenant) }),
    path: (f, mode, row) => f.tenant.path(path(row.ids, mode)),
    expect: KEY_OR_USER,
  })),
  {
    // No meter has this event name: callers allowed to send meter events reach the handler (E8001).
    name: 'POST /meter_events',
    method: 'post',
    path: (f) => f.tenant.path('/meter_events'),
    body: { event_name: 'no_such_meter', customer_id: '0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b', payload: { n: '1' } },
    expect: { ...KEY_OR_USER, 'test key': 'E8001', 'live key': 'E8001', 'user member': 'E1300', superuser: 'E8001' },
  },
  {
    // A valid event for the mode's meter and customer: machines store it; users may not send events.
    name: 'POST /meter_events/batch',
    method: 'post',
    setup: async (t, f) => ({ ids: await meterRecords(t, f.tenant) }),
    path: (f) => f.tenant.path('/meter_events/batch'),
    body: (_f, mode, row) => ({
      events: [{ event_name: MATRIX_METER_EVENT, customer_id: row.ids[`customer_${mode}`], payload: { calls: '1' } }],
    }),
    expect: { ...KEY_OR_USER, 'user member': 'E1300' },
  },
  {
    name: 'GET /oauth/me (root)',
    method: 'get',
    documented: '/oauth/me',
    path: () => '/oauth/me',
    expect: {
      ...KEY_OR_USER,
      'bad Basic': 'E1200',
      'test key': 'E1200',
      'live key': 'E1200',
      "other app's key": 'E1200',
      'user non-member': 200,
    },
  },
  {
    name: 'GET /oauth/me',
    method: 'get',
    path: (f) => f.tenant.path('/oauth/me'),
    expect: {
      ...KEY_OR_USER,
      'bad Basic': 'E1200',
      'test key': 'E1200',
      'live key': 'E1200',
      "other app's key": 'E1200',
    },
  },
  // The audit log (docs/AUDIT.md): people only, owners and admins of the application (the matrix
  // member is a developer: E1241, the roles table) and superusers.
  ...(['GET /audit_events', 'GET /audit_events/export'] as const).map((name): EndpointCase => ({
    name,
    method: 'get',
    path: (f) => f.tenant.path(name.slice('GET '.length)),
    expect: {
      ...KEY_OR_USER,
      'bad Basic': 'E1200',
      'test key': 'E1200',
      'live key': 'E1200',
      "other app's key": 'E1200',
      'user member': 'E1241',
    },
  })),
  // Provider webhooks: no credential is read (the provider's event is verified instead); this
  // service has no Opn or Stripe keys, so every caller gets E5203 before anything else.
  ...(['opn', 'stripe'] as const).map((provider): EndpointCase => ({
    name: `POST /provider_webhooks/${provider}`,
    method: 'post',
    documented: `/provider_webhooks/${provider}`,
    path: () => `/provider_webhooks/${provider}`,
    body:
      provider === 'opn'
        ? { object: 'event', id: 'evnt_test_5matrix00000000000' }
        : { id: 'evt_matrix', object: 'event', type: 'payment_intent.succeeded', livemode: false, data: {} },
    expect: NO_CREDENTIAL_READ,
  })),
  // Restricted keys: bearer tokens only (a key cannot manage keys); the member is a developer, who
  // manages keys in test mode (docs/SECURITY.md, "Roles"), and the matrix runs in test mode.
  {
    name: 'POST /restricted_keys',
    method: 'post',
    path: (f) => f.tenant.path('/restricted_keys'),
    body: { name: 'Matrix', permissions: { charges: 'read' } },
    expect: BEARER_ONLY,
  },
  { name: 'GET /restricted_keys', method: 'get', path: (f) => f.tenant.path('/restricted_keys'), expect: BEARER_ONLY },
  {
    name: 'GET /restricted_keys/:id',
    method: 'get',
    setup: async (t, f) => ({ ids: { key: await restrictedKeyOf(t, f.tenant) } }),
    path: (f, _mode, row) => f.tenant.path(`/restricted_keys/${row.ids.key}`),
    expect: BEARER_ONLY,
  },
  {
    name: 'POST /restricted_keys/:id',
    method: 'post',
    setup: async (t, f) => ({ ids: { key: await restrictedKeyOf(t, f.tenant) } }),
    path: (f, _mode, row) => f.tenant.path(`/restricted_keys/${row.ids.key}`),
    body: { permissions: { customers: 'write' } },
    expect: BEARER_ONLY,
  },
  // Rolling and revoking change the key: an unknown id, so every allowed caller gets the same E4004.
  ...(
    [
      ['POST /restricted_keys/:id/roll', 'post'],
      ['DELETE /restricted_keys/:id', 'delete'],
    ] as const
  ).map(([name, method]): EndpointCase => ({
    name,
    method,
    path: (f) => f.tenant.path(`/restricted_keys/${UNKNOWN_ID}${name.endsWith('/roll') ? '/roll' : ''}`),
    expect: { ...BEARER_ONLY, 'user member': 'E4004', superuser: 'E4004' },
  })),
  ...subscriptionEndpoints(KEY_OR_USER, UNKNOWN_ID),
  ...billingEndpoints(KEY_OR_USER, UNKNOWN_ID),
];

/** The base every wallet route sits under in the OpenAPI document. */
export const WALLET_BASE = '/api/v1/{app}/platform/wallet';

/** The documented operation a row calls, as `METHOD /path` in the OpenAPI document's spelling. */
export function documentedOperation(row: EndpointCase): string {
  const [, relative] = row.name.split(' ');
  const path = row.documented ?? WALLET_BASE + relative.replace(/:(\w+)/g, '{$1}');
  return `${row.method.toUpperCase()} ${path}`;
}

/**
 * Documented operations with no row, each with the reason no credential kind applies to it. An
 * operation that takes a key, a user token or a session belongs in ENDPOINTS, never here.
 */
export const EXEMPT: Record<string, string> = {
  'GET /.well-known/oauth-authorization-server':
    'public OAuth server metadata (RFC 8414): it is read before any credential exists',
  'GET /.well-known/wallet-statement-keys':
    'the public keys of balance statements (JWKS): read by offline verifiers that hold no credential (statements.e2e-spec.ts)',
  'GET /oauth2/auth':
    'the authorization-code sign-in page: the user authenticates on it (oauth-flow and login-page e2e specs)',
  'POST /oauth/token':
    'the OAuth token endpoint: it authenticates an OAuth client (its secret or PKCE) and the grant in the form body, none of the credential kinds above; its refusals are in oauth-flow.e2e-spec.ts',
  [`POST ${WALLET_BASE}/oauth/token`]: 'the token endpoint under the wallet base: as POST /oauth/token',
  'POST /oauth/token/refresh': 'exchanges the refresh token in the body; covered by oauth-flow.e2e-spec.ts',
  [`POST ${WALLET_BASE}/oauth/token/refresh`]:
    'the refresh endpoint under the wallet base: as POST /oauth/token/refresh',
  'GET /errors/{code}':
    "the public page of an error code, where every error object's doc_url points: no credential is read (error-params.e2e-spec.ts)",
  'GET /provider_returns/{provider}/{charge_id}':
    "the customer's browser coming back from the provider's page: public HTML that reads the charge's state, no credential (provider-returns.e2e-spec.ts)",
  'GET /provider_returns/sandbox/{charge_id}/authorize':
    "the test-mode page standing in for a provider's app or bank page: public HTML for a pending sandbox charge's payer, no credential (local-methods.browser.e2e-spec.ts)",
  'POST /provider_returns/sandbox/{charge_id}/authorize':
    "the payer's answer on that test-mode page: a form post with no credential, only for a pending test-mode sandbox charge (local-methods.browser.e2e-spec.ts)",
};
