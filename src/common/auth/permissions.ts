/**
 * The permission model, in one table (docs/SECURITY.md, "Keys" and "Roles"): every authenticated
 * route (method + OpenAPI path) names the resource group it acts on and whether it reads or
 * writes; restricted keys (`rk_…`) carry a level per group and bearer tokens a role, and both are
 * checked against this table by the auth guard. A route missing here fails the app at boot
 * (RoutePermissions) and the restricted-key matrix test, which derives its expectations from it.
 */

/** What a restricted key may be granted, one level per group. */
export const RESOURCE_GROUPS = [
  'accounts',
  'balances',
  'bank_accounts',
  'charges',
  'checkouts',
  'coupons',
  'credit_grants',
  'customers',
  'disputes',
  'events',
  'files',
  'invoices',
  'meter_events',
  'meters',
  'payment_intents',
  'payment_links',
  'payouts',
  'prices',
  'products',
  'reconciliation',
  'refunds',
  'reports',
  'subscriptions',
  'tax_rates',
  'test_clocks',
  'webhook_endpoints',
] as const;
export type ResourceGroup = (typeof RESOURCE_GROUPS)[number];

/**
 * Account management: keys themselves, and the audit log (owners and admins only). Never grantable
 * to a restricted key; only roles reach them.
 */
export const ACCOUNT_GROUPS = ['api_keys', 'audit_events'] as const;
export type AccountGroup = (typeof ACCOUNT_GROUPS)[number];

export type PermissionGroup = ResourceGroup | AccountGroup;
export type Access = 'read' | 'write';
export const PERMISSION_LEVELS = ['none', 'read', 'write'] as const;
export type PermissionLevel = (typeof PERMISSION_LEVELS)[number];
export type RestrictedPermissions = Record<ResourceGroup, PermissionLevel>;

export const ROLES = ['owner', 'admin', 'developer', 'analyst', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

/**
 * What a route needs: a group and an access, or `any` (any credential the route's `@Auth(...)`
 * accepts, e.g. the error catalog), or `session` (only a one-time session reaches it, so neither
 * keys nor roles apply).
 */
export type RouteRequirement = { group: PermissionGroup; access: Access } | 'any' | 'session';

const r = (group: PermissionGroup): RouteRequirement => ({ group, access: 'read' });
const w = (group: PermissionGroup): RouteRequirement => ({ group, access: 'write' });

/** Every authenticated route under the wallet base (`/api/v1/{app}/platform/wallet`), by `METHOD /path`. */
export const WALLET_ROUTES: Record<string, RouteRequirement> = {
  'GET /errors/catalog': 'any',
  'GET /oauth/me': 'any',

  'POST /accounts': w('accounts'),
  'GET /accounts': r('accounts'),
  'GET /accounts/{id}': r('accounts'),
  'POST /test_helpers/accounts/{id}/verify': w('accounts'),
  'POST /test_helpers/accounts/{id}/reject': w('accounts'),

  'GET /balances': r('balances'),
  'GET /balances/{id}': r('balances'),
  'GET /balance_transactions': r('balances'),
  'GET /balance_transactions/{id}': r('balances'),
  'POST /balances/{id}/statements': w('balances'),
  'GET /balances/{id}/statements/{statement_id}': r('balances'),
  'POST /test_helpers/holds/release': w('balances'),

  'POST /bank_accounts': w('bank_accounts'),
  'GET /bank_accounts': r('bank_accounts'),
  'GET /bank_accounts/{id}': r('bank_accounts'),
  'POST /bank_account_intents': w('bank_accounts'),
  'GET /bank_account_intents/{id}': r('bank_accounts'),

  'GET /charges': r('charges'),
  'GET /charges/{id}': r('charges'),

  'POST /checkouts': w('checkouts'),
  'GET /checkouts': r('checkouts'),
  'GET /checkouts/{id}': r('checkouts'),
  'POST /checkouts/{id}/confirm': 'session',
  'POST /test_helpers/checkouts/{id}/expire': w('checkouts'),
  'POST /test_helpers/checkouts/{id}/pay_promptpay': w('checkouts'),
  'POST /test_helpers/charges/{id}/succeed': w('charges'),
  'POST /test_helpers/charges/{id}/fail': w('charges'),

  'POST /coupons': w('coupons'),
  'GET /coupons': r('coupons'),
  'GET /coupons/{id}': r('coupons'),
  'POST /coupons/{id}': w('coupons'),
  'DELETE /coupons/{id}': w('coupons'),
  'POST /promotion_codes': w('coupons'),
  'GET /promotion_codes': r('coupons'),
  'GET /promotion_codes/{id}': r('coupons'),
  'POST /promotion_codes/{id}': w('coupons'),

  'POST /customers/{customer_id}/credit_grants': w('credit_grants'),
  'GET /customers/{customer_id}/credit_grants': r('credit_grants'),
  'GET /credit_grants/{id}': r('credit_grants'),
  'POST /credit_grants/{id}/void': w('credit_grants'),

  'POST /customers': w('customers'),
  'GET /customers': r('customers'),
  'GET /customers/{id}': r('customers'),
  'POST /customers/{id}': w('customers'),
  'GET /customers/{id}/payment_methods': r('customers'),
  'GET /payment_methods/{id}': r('customers'),
  'POST /payment_methods/{id}/detach': w('customers'),

  'POST /disputes/{id}': w('disputes'),
  'GET /disputes': r('disputes'),
  'GET /disputes/{id}': r('disputes'),
  'POST /disputes/{id}/close': w('disputes'),
  'POST /test_helpers/disputes': w('disputes'),
  'POST /test_helpers/disputes/{id}/win': w('disputes'),
  'POST /test_helpers/disputes/{id}/lose': w('disputes'),

  'GET /events': r('events'),
  'GET /events/{id}': r('events'),
  'GET /events/{id}/deliveries': r('events'),
  'POST /events/{id}/resend': w('events'),

  'POST /files': w('files'),
  'GET /files': r('files'),
  'GET /files/{id}': r('files'),
  'GET /files/{id}/contents': r('files'),

  'POST /invoices': w('invoices'),
  'GET /invoices': r('invoices'),
  'GET /invoices/upcoming': r('invoices'),
  'GET /invoices/{id}': r('invoices'),
  'GET /invoices/{id}/lines': r('invoices'),
  'GET /invoices/{id}/lines/{line_id}/meter_events': r('invoices'),
  'POST /invoices/{id}/finalize': w('invoices'),
  'POST /invoices/{id}/void': w('invoices'),

  'POST /meter_events': w('meter_events'),
  'POST /meter_events/batch': w('meter_events'),
  'GET /meter_events/{id}': r('meter_events'),

  'POST /meters': w('meters'),
  'GET /meters': r('meters'),
  'GET /meters/{id}': r('meters'),
  'POST /meters/{id}': w('meters'),
  'POST /meters/{id}/deactivate': w('meters'),
  'GET /meters/{id}/event_summaries': r('meters'),

  'POST /payment_intents': w('payment_intents'),
  'GET /payment_intents': r('payment_intents'),
  'GET /payment_intents/{id}': r('payment_intents'),
  'POST /payment_intents/{id}/capture': w('payment_intents'),
  'POST /payment_intents/{id}/cancel': w('payment_intents'),
  'POST /test_helpers/payment_intents/{id}/expire_authorization': w('payment_intents'),

  'POST /payment_links': w('payment_links'),
  'GET /payment_links': r('payment_links'),
  'GET /payment_links/{id}': r('payment_links'),
  'POST /payment_links/{id}/deactivate': w('payment_links'),

  'POST /payouts': w('payouts'),
  'GET /payouts': r('payouts'),
  'GET /payouts/{id}': r('payouts'),
  'POST /payouts/{id}/cancel': w('payouts'),
  'POST /payout_schedules': w('payouts'),
  'GET /payout_schedules/{account}': r('payouts'),
  'POST /test_helpers/payouts/{id}/paid': w('payouts'),
  'POST /test_helpers/payouts/{id}/fail': w('payouts'),

  'POST /prices': w('prices'),
  'GET /prices': r('prices'),
  'GET /prices/{id}': r('prices'),
  'POST /prices/{id}': w('prices'),

  'POST /products': w('products'),
  'GET /products': r('products'),
  'GET /products/{id}': r('products'),
  'POST /products/{id}': w('products'),

  'POST /reconciliation_runs': w('reconciliation'),
  'GET /reconciliation_runs': r('reconciliation'),
  'GET /reconciliation_runs/{id}': r('reconciliation'),
  'GET /reconciliation_runs/{id}/items': r('reconciliation'),

  'POST /refunds': w('refunds'),
  'GET /refunds': r('refunds'),
  'GET /refunds/{id}': r('refunds'),
  'POST /test_helpers/refunds/{id}/settle': w('refunds'),

  'POST /reporting/report_runs': w('reports'),
  'GET /reporting/report_runs': r('reports'),
  'GET /reporting/report_runs/{id}': r('reports'),

  'POST /restricted_keys': w('api_keys'),
  'GET /restricted_keys': r('api_keys'),
  'GET /restricted_keys/{id}': r('api_keys'),
  'POST /restricted_keys/{id}': w('api_keys'),
  'POST /restricted_keys/{id}/roll': w('api_keys'),
  'DELETE /restricted_keys/{id}': w('api_keys'),

  'POST /subscriptions': w('subscriptions'),
  'GET /subscriptions': r('subscriptions'),
  'GET /subscriptions/{id}': r('subscriptions'),
  'POST /subscriptions/{id}': w('subscriptions'),
  'POST /subscriptions/{id}/cancel': w('subscriptions'),
  'GET /subscriptions/{id}/pending_items': r('subscriptions'),

  'POST /tax_rates': w('tax_rates'),
  'GET /tax_rates': r('tax_rates'),
  'GET /tax_rates/{id}': r('tax_rates'),
  'POST /tax_rates/{id}': w('tax_rates'),

  'POST /test_helpers/test_clocks': w('test_clocks'),
  'GET /test_helpers/test_clocks': r('test_clocks'),
  'GET /test_helpers/test_clocks/{id}': r('test_clocks'),
  'DELETE /test_helpers/test_clocks/{id}': w('test_clocks'),
  'POST /test_helpers/test_clocks/{id}/advance': w('test_clocks'),

  'GET /audit_events': r('audit_events'),
  'GET /audit_events/export': r('audit_events'),

  'POST /webhook_endpoints': w('webhook_endpoints'),
  'GET /webhook_endpoints': r('webhook_endpoints'),
  'GET /webhook_endpoints/{id}': r('webhook_endpoints'),
  'POST /webhook_endpoints/{id}': w('webhook_endpoints'),
  'DELETE /webhook_endpoints/{id}': w('webhook_endpoints'),
  'POST /webhook_endpoints/{id}/rotate_secret': w('webhook_endpoints'),
  'GET /webhook_endpoints/{id}/deliveries': r('webhook_endpoints'),
  'POST /test_helpers/webhook_endpoints/{id}/disable': w('webhook_endpoints'),
};

/** Every authenticated route outside the wallet base, by `METHOD /path` as the OpenAPI document spells it. */
export const OTHER_ROUTES: Record<string, RouteRequirement> = {
  'GET /oauth/me': 'any',
  'POST /api/v1/{app}/vault/tokens': 'session',
};

export const WALLET_BASE_PATH = '/api/v1/{app}/platform/wallet';

/** The requirement of `METHOD /openapi/path` (the path as the OpenAPI document spells it), if the table has one. */
export function requirementOf(method: string, path: string): RouteRequirement | undefined {
  const key = `${method.toUpperCase()} ${path.startsWith(WALLET_BASE_PATH + '/') ? path.slice(WALLET_BASE_PATH.length) : path}`;
  return path.startsWith(WALLET_BASE_PATH + '/') ? WALLET_ROUTES[key] : OTHER_ROUTES[key];
}

/**
 * What each role may do. `read`/`write`: the groups it reads and writes (`all`: every group,
 * account groups included); `testOnlyWrite`: groups it writes in test mode only. A superuser is
 * not a role: it passes every check.
 */
export interface RoleRule {
  read: 'all' | readonly PermissionGroup[];
  write: 'all' | readonly PermissionGroup[];
  testOnlyWrite: readonly PermissionGroup[];
  summary: string;
}

const EVERY_RESOURCE: readonly PermissionGroup[] = RESOURCE_GROUPS;

export const ROLE_RULES: Record<Role, RoleRule> = {
  owner: { read: 'all', write: 'all', testOnlyWrite: [], summary: 'everything, both modes' },
  admin: { read: 'all', write: 'all', testOnlyWrite: [], summary: 'everything, both modes' },
  developer: {
    read: [...EVERY_RESOURCE, 'api_keys'],
    write: EVERY_RESOURCE.filter((g) => g !== 'webhook_endpoints'),
    testOnlyWrite: ['api_keys', 'webhook_endpoints'],
    summary:
      'reads everything but the audit log; writes resources; manages keys and webhook endpoints in test mode only',
  },
  analyst: {
    read: [...EVERY_RESOURCE, 'api_keys'],
    write: ['reports', 'reconciliation'],
    testOnlyWrite: [],
    summary:
      'reads everything but the audit log (money included), runs reports and reconciliations, writes nothing else',
  },
  viewer: {
    read: EVERY_RESOURCE,
    write: [],
    testOnlyWrite: [],
    summary: 'reads every resource; no keys (secrets), no writes',
  },
};

const includes = (list: 'all' | readonly PermissionGroup[], group: PermissionGroup) =>
  list === 'all' || list.includes(group);

/** Whether `role` may do `access` on `group` in `mode`: `mode` matters only for test-only writes. */
export function roleAllows(role: Role, group: PermissionGroup, access: Access, mode: 'test' | 'live'): boolean {
  const rule = ROLE_RULES[role];
  if (access === 'read') return includes(rule.read, group);
  if (includes(rule.write, group)) return true;
  return mode === 'test' && rule.testOnlyWrite.includes(group);
}

/** The roles that may do `access` on `group` in `mode` (for the refusal's message). */
export function rolesAllowed(group: PermissionGroup, access: Access, mode: 'test' | 'live'): Role[] {
  return ROLES.filter((role) => roleAllows(role, group, access, mode));
}

/** Whether a restricted key's `permissions` allow `access` on `group` (account groups: never). */
export function keyAllows(
  permissions: Partial<RestrictedPermissions>,
  group: PermissionGroup,
  access: Access,
): boolean {
  if ((ACCOUNT_GROUPS as readonly string[]).includes(group)) return false;
  const level = permissions[group as ResourceGroup] ?? 'none';
  return access === 'read' ? level !== 'none' : level === 'write';
}
