import { WALLET_BASE_PATH } from '../auth/permissions.js';
import type { AuditAction } from './audit-actions.js';

/**
 * The audit rows of every state-changing route (docs/AUDIT.md, "Rows by route"), keyed by
 * `METHOD /path` relative to the wallet base (the full documented path outside it; a route the
 * document lists both at the root and under the base, the OAuth token routes, has one entry).
 * Not read by the service: it is what the Swagger UI walk (try-it-out.browser.e2e-spec.ts)
 * checks every successful call against, by its request id, and what docs/AUDIT.md lists
 * (audited-routes.spec.ts keeps the two equal). A documented POST, PUT, PATCH or DELETE without
 * an entry here fails that walk.
 */
export interface RouteAudit {
  /** The row naming what the call changed. */
  action: AuditAction;
  /**
   * Where the row's target is in the answer: its `object` and `id` by default; `{ type, id }` names
   * the type and the answer's field (dotted) holding the id; `rows` when the answer is no object
   * and each row names its own (a hold release: one row per balance released).
   */
  target?: { type: string; id: string } | 'rows';
  /** Rows every such call also writes (its events), by action. */
  also?: readonly AuditAction[];
  /** Rows it writes or not, by action, depending on the object's state or the provider's answer. */
  may?: readonly AuditAction[];
}

/** A write route with no row of its own, and why (docs/AUDIT.md, "Not audited"). */
export interface Unaudited {
  unaudited: string;
}

export type RouteAuditEntry = RouteAudit | Unaudited;

const PAYMENT_EVENTS: readonly AuditAction[] = [
  'charge.succeeded',
  'charge.failed',
  'charge.captured',
  'payment_intent.succeeded',
  'payment_intent.payment_failed',
  'payment_intent.requires_action',
  'payment_intent.amount_capturable_updated',
  'checkout.completed',
  'invoice.paid',
  'invoice.updated',
  'balance.available',
  'customer.subscription.updated',
  'payment_method.attached',
];

const OAUTH_TOKEN =
  'issues tokens to a signed-in user (a credential in use, not a change to an application): the sign-in ' +
  'is audited (`user.login`), and so is a reused refresh token or code (`oauth.refresh_token_reuse`, `oauth.code_reuse`)';
const PROVIDER_WEBHOOK =
  "a provider's notice, verified by its signature (no credential): the changes it makes are audited " +
  'through their events, actor `anonymous` (the provider is no principal)';

const SANDBOX_PAGE =
  "the payer's answer on the test-mode page standing in for a provider's app or bank page (no credential): " +
  'the outcome it applies is audited through its events, actor `anonymous`, as a provider webhook is';

export const AUDITED_ROUTES: Record<string, RouteAuditEntry> = {
  'POST /accounts': { action: 'account.created' },
  'POST /test_helpers/accounts/{id}/verify': { action: 'account.updated' },
  'POST /test_helpers/accounts/{id}/reject': { action: 'account.updated' },

  'POST /balances/{id}/statements': { action: 'balance_statement.created' },
  'POST /test_helpers/holds/release': { action: 'balance.available', target: 'rows' },

  'POST /bank_accounts': { action: 'bank_account.created' },
  'POST /bank_account_intents': { action: 'bank_account_intent.created' },

  'POST /checkouts': { action: 'checkout.created', may: ['customer.subscription.created', 'invoice.finalized'] },
  'POST /checkouts/{id}/confirm': {
    action: 'charge.created',
    target: { type: 'charge', id: 'charge.id' },
    may: PAYMENT_EVENTS,
  },
  'POST /test_helpers/charges/{id}/succeed': { action: 'charge.succeeded', may: PAYMENT_EVENTS },
  'POST /test_helpers/charges/{id}/fail': { action: 'charge.failed', may: PAYMENT_EVENTS },
  'POST /test_helpers/checkouts/{id}/expire': { action: 'checkout.expired', may: ['invoice.voided'] },
  'POST /test_helpers/checkouts/{id}/pay_promptpay': {
    action: 'checkout.completed',
    target: { type: 'checkout', id: 'checkout.id' },
    also: ['charge.succeeded', 'payment_intent.succeeded'],
    may: PAYMENT_EVENTS,
  },

  'POST /coupons': { action: 'coupon.created' },
  'POST /coupons/{id}': { action: 'coupon.updated' },
  'DELETE /coupons/{id}': { action: 'coupon.deleted' },
  'POST /promotion_codes': { action: 'promotion_code.created' },
  'POST /promotion_codes/{id}': { action: 'promotion_code.updated' },

  'POST /customers/{customer_id}/credit_grants': { action: 'billing.credit_grant.created' },
  'POST /credit_grants/{id}/void': { action: 'billing.credit_grant.voided' },

  'POST /customers': { action: 'customer.created' },
  'POST /customers/{id}': { action: 'customer.updated' },
  'POST /payment_methods/{id}/detach': { action: 'payment_method.detached' },

  'POST /disputes/{id}': { action: 'charge.dispute.updated' },
  'POST /disputes/{id}/close': { action: 'charge.dispute.closed', may: ['balance.available'] },
  'POST /test_helpers/disputes': { action: 'charge.dispute.created' },
  'POST /test_helpers/disputes/{id}/win': {
    action: 'charge.dispute.closed',
    may: ['balance.available'],
  },
  'POST /test_helpers/disputes/{id}/lose': { action: 'charge.dispute.closed', may: ['balance.available'] },

  'POST /events/{id}/resend': { action: 'event.resent' },

  'POST /files': { action: 'file.created' },

  'POST /invoices': { action: 'invoice.created' },
  'POST /invoices/{id}/finalize': { action: 'invoice.finalized' },
  'POST /invoices/{id}/void': { action: 'invoice.voided' },

  'POST /meter_events': {
    unaudited:
      'usage records, not configuration or money movements: thousands a second, each itself an immutable, idempotent record',
  },
  'POST /meter_events/batch': { unaudited: 'as `POST /meter_events`: a batch of usage records' },

  'POST /meters': { action: 'billing.meter.created' },
  'POST /meters/{id}': { action: 'billing.meter.updated' },
  'POST /meters/{id}/deactivate': { action: 'billing.meter.deactivated' },

  'POST /payment_intents': { action: 'payment_intent.created', may: PAYMENT_EVENTS },
  'POST /payment_intents/{id}/capture': {
    action: 'payment_intent.succeeded',
    also: ['charge.captured'],
    may: PAYMENT_EVENTS,
  },
  'POST /payment_intents/{id}/cancel': {
    action: 'payment_intent.canceled',
    may: ['charge.expired', 'checkout.expired'],
  },
  'POST /test_helpers/payment_intents/{id}/expire_authorization': {
    action: 'payment_intent.canceled',
    also: ['charge.expired'],
  },

  'POST /payment_links': { action: 'payment_link.created' },
  'POST /payment_links/{id}/deactivate': { action: 'payment_link.deactivated' },

  'POST /payouts': { action: 'payout.created', may: ['payout.updated', 'payout.failed', 'balance.available'] },
  'POST /payouts/{id}/cancel': { action: 'payout.canceled' },
  'POST /payout_schedules': { action: 'payout_schedule.updated', target: { type: 'payout_schedule', id: 'account' } },
  'POST /test_helpers/payouts/{id}/paid': { action: 'payout.paid' },
  'POST /test_helpers/payouts/{id}/fail': { action: 'payout.failed' },

  'POST /prices': { action: 'price.created' },
  'POST /prices/{id}': { action: 'price.updated' },

  'POST /products': { action: 'product.created' },
  'POST /products/{id}': { action: 'product.updated' },

  'POST /reconciliation_runs': { action: 'reconciliation_run.created' },

  'POST /refunds': {
    action: 'refund.created',
    may: ['refund.updated', 'refund.succeeded', 'refund.failed', 'charge.refunded', 'invoice.updated'],
  },
  'POST /test_helpers/refunds/{id}/settle': {
    action: 'refund.succeeded',
    also: ['refund.updated'],
    may: ['charge.refunded', 'invoice.updated'],
  },

  'POST /reporting/report_runs': { action: 'reporting.report_run.created' },

  'POST /restricted_keys': { action: 'restricted_key.created' },
  'POST /restricted_keys/{id}': { action: 'restricted_key.updated' },
  // The answer is the new key; the old one's row is `restricted_key.rolled`.
  'POST /restricted_keys/{id}/roll': { action: 'restricted_key.created', also: ['restricted_key.rolled'] },
  'DELETE /restricted_keys/{id}': { action: 'restricted_key.revoked' },

  'POST /subscriptions': {
    action: 'customer.subscription.created',
    may: ['invoice.created', 'invoice.finalized', ...PAYMENT_EVENTS],
  },
  'POST /subscriptions/{id}': {
    action: 'customer.subscription.updated',
    may: ['invoice.created', 'invoice.finalized', ...PAYMENT_EVENTS],
  },
  'POST /subscriptions/{id}/cancel': {
    action: 'customer.subscription.deleted',
    may: ['invoice.created', 'invoice.finalized', ...PAYMENT_EVENTS],
  },

  'POST /tax_rates': { action: 'tax_rate.created' },
  'POST /tax_rates/{id}': { action: 'tax_rate.updated' },

  'POST /test_helpers/test_clocks': { action: 'test_helpers.test_clock.created' },
  'DELETE /test_helpers/test_clocks/{id}': { action: 'test_helpers.test_clock.deleted' },
  'POST /test_helpers/test_clocks/{id}/advance': { action: 'test_helpers.test_clock.advancing' },

  'POST /webhook_endpoints': { action: 'webhook_endpoint.created' },
  'POST /webhook_endpoints/{id}': { action: 'webhook_endpoint.updated' },
  'DELETE /webhook_endpoints/{id}': { action: 'webhook_endpoint.deleted' },
  'POST /webhook_endpoints/{id}/rotate_secret': { action: 'webhook_endpoint.secret_rotated' },
  'POST /test_helpers/webhook_endpoints/{id}/disable': { action: 'webhook_endpoint.disabled' },

  'POST /api/v1/{app}/vault/tokens': { action: 'token.created' },
  'POST /oauth/token': { unaudited: OAUTH_TOKEN },
  'POST /oauth/token/refresh': { unaudited: OAUTH_TOKEN },
  'POST /provider_returns/sandbox/{charge_id}/authorize': { unaudited: SANDBOX_PAGE },
  'POST /provider_webhooks/opn': { unaudited: PROVIDER_WEBHOOK },
  'POST /provider_webhooks/stripe': { unaudited: PROVIDER_WEBHOOK },
};

export const isAudited = (entry: RouteAuditEntry): entry is RouteAudit => 'action' in entry;

/** The key of `METHOD /openapi/path` in AUDITED_ROUTES. */
export function auditKeyOf(method: string, path: string): string {
  return `${method.toUpperCase()} ${path.startsWith(WALLET_BASE_PATH + '/') ? path.slice(WALLET_BASE_PATH.length) : path}`;
}
