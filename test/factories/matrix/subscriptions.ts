import type { Credential, EndpointCase, Outcome } from './endpoints.js';

type Expect = Record<Credential, Outcome>;

const reaching = (keyOrUser: Expect, code: Outcome, live: Outcome = code): Expect => ({
  ...keyOrUser,
  'test key': code,
  'live key': live,
  'user member': code,
  superuser: code,
});

let clocksCreated = 0;

/**
 * Rows of test clocks and subscriptions (docs/BILLING.md). Test clocks are test helpers: live mode
 * answers E4040. The rest name an unknown record, so allowed callers reach the handler.
 */
export function subscriptionEndpoints(keyOrUser: Expect, unknownId: string): EndpointCase[] {
  const row = (name: string, method: EndpointCase['method'], expect: Expect, body?: object): EndpointCase => {
    const path = name.split(' ')[1].replace(':id', unknownId);
    return { name, method, path: (f) => f.tenant.path(path), ...(body ? { body } : {}), expect };
  };
  const helper = (code: Outcome) => reaching(keyOrUser, code, 'E4040');
  return [
    {
      name: 'POST /test_helpers/test_clocks',
      method: 'post',
      path: (f) => f.tenant.path('/test_helpers/test_clocks'),
      body: () => ({ frozen_time: '2026-01-01T00:00:00Z', name: `Matrix ${++clocksCreated}` }),
      expect: helper(200),
    },
    row('GET /test_helpers/test_clocks', 'get', helper(200)),
    row('GET /test_helpers/test_clocks/:id', 'get', helper('E4004')),
    row('DELETE /test_helpers/test_clocks/:id', 'delete', helper('E4004')),
    row('POST /test_helpers/test_clocks/:id/advance', 'post', helper('E4004'), {
      frozen_time: '2026-02-01T00:00:00Z',
    }),
    row('GET /subscriptions', 'get', keyOrUser),
    // An unknown customer: allowed callers reach the handler and get the subscription's own code.
    row('POST /subscriptions', 'post', reaching(keyOrUser, 'E7723'), {
      customer_id: unknownId,
      items: [{ price_id: unknownId }],
    }),
    row('GET /subscriptions/:id', 'get', reaching(keyOrUser, 'E4004')),
    row('POST /subscriptions/:id', 'post', reaching(keyOrUser, 'E4004'), { metadata: { a: '1' } }),
    row('POST /subscriptions/:id/cancel', 'post', reaching(keyOrUser, 'E4004'), {}),
    row('GET /subscriptions/:id/pending_items', 'get', reaching(keyOrUser, 'E4004')),
    // Invoicing (billing part 2): an unknown subscription or invoice.
    {
      name: 'GET /invoices/upcoming',
      method: 'get',
      path: (f) => f.tenant.path(`/invoices/upcoming?subscription_id=${unknownId}`),
      expect: reaching(keyOrUser, 'E4004'),
    },
    row('GET /invoices/:id/lines', 'get', reaching(keyOrUser, 'E4004')),
    {
      name: 'GET /invoices/:id/lines/:line_id/meter_events',
      method: 'get',
      path: (f) => f.tenant.path(`/invoices/${unknownId}/lines/${unknownId}/meter_events`),
      expect: reaching(keyOrUser, 'E4004'),
    },
  ];
}
