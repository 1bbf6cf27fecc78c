import type { Credential, EndpointCase, Outcome } from './endpoints.js';

type Expect = Record<Credential, Outcome>;

/** Every allowed credential reaches the handler and gets `code` (an unknown record, a refused body). */
const reaching = (keyOrUser: Expect, code: Outcome): Expect => ({
  ...keyOrUser,
  'test key': code,
  'live key': code,
  'user member': code,
  superuser: code,
});

/**
 * The billing catalog's rows (docs/BILLING.md). Creates that need no other record succeed for every
 * allowed credential; the rest name an unknown record, so allowed callers reach the handler.
 */
export function billingEndpoints(keyOrUser: Expect, unknownId: string): EndpointCase[] {
  const unknown = reaching(keyOrUser, 'E4004');
  const row = (name: string, method: EndpointCase['method'], expect: Expect, body?: object): EndpointCase => {
    const path = name.split(' ')[1].replace(':id', unknownId);
    return { name, method, path: (f) => f.tenant.path(path), ...(body ? { body } : {}), expect };
  };
  return [
    row('GET /products', 'get', keyOrUser),
    row('POST /products', 'post', keyOrUser, { name: 'Matrix plan' }),
    row('GET /products/:id', 'get', unknown),
    row('POST /products/:id', 'post', unknown, { name: 'Renamed' }),
    row('GET /prices', 'get', keyOrUser),
    // No such product: allowed callers get the price's own code.
    row('POST /prices', 'post', reaching(keyOrUser, 'E7600'), {
      product_id: unknownId,
      currency: 'THB',
      unit_amount: 1000,
    }),
    row('GET /prices/:id', 'get', unknown),
    row('POST /prices/:id', 'post', unknown, { active: false }),
    row('GET /coupons', 'get', keyOrUser),
    row('POST /coupons', 'post', keyOrUser, { percent_off: 10 }),
    row('GET /coupons/:id', 'get', unknown),
    row('POST /coupons/:id', 'post', unknown, { name: 'Renamed' }),
    row('DELETE /coupons/:id', 'delete', unknown),
    row('GET /promotion_codes', 'get', keyOrUser),
    // No such coupon: allowed callers get the promotion code's own code.
    row('POST /promotion_codes', 'post', reaching(keyOrUser, 'E7625'), { coupon_id: unknownId }),
    row('GET /promotion_codes/:id', 'get', unknown),
    row('POST /promotion_codes/:id', 'post', unknown, { active: false }),
    row('GET /tax_rates', 'get', keyOrUser),
    row('POST /tax_rates', 'post', keyOrUser, { display_name: 'VAT', percentage: 7, inclusive: false, country: 'TH' }),
    row('GET /tax_rates/:id', 'get', unknown),
    row('POST /tax_rates/:id', 'post', unknown, { active: false }),
  ];
}
