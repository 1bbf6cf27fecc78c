import type { EventType } from '../events/event-types.js';

/**
 * Every audit action that is not an event type, with what it records (docs/AUDIT.md lists them,
 * audited-routes.spec.ts keeps that list equal to this one). `AuditEntry.action` takes only these
 * or an event type (an event recorded by a request is audited under its type), so a new action
 * cannot be written without being listed here.
 */
export const AUDIT_ACTIONS = {
  'account.created': 'A connected account was created (`POST /accounts`).',
  'api_key.created': 'A secret key was created (CLI `apps:create`, `keys:create`, `keys:roll`).',
  'api_key.rolled': 'A secret key was rolled: the old key, with its expiry (CLI `keys:roll`).',
  'api_key.revoked': 'A secret key was revoked (CLI `keys:revoke`).',
  'application.created': 'An application was created (CLI `apps:create`).',
  'authentication.failed_burst': 'Five or more failed authentications from one address and credential in a minute.',
  'balance_statement.created': 'A signed balance statement was issued (`POST /balances/{id}/statements`).',
  'bank_account_intent.created': 'A hosted bank account page was opened for an account (`POST /bank_account_intents`).',
  'billing.meter.created': 'A meter was created; the meter (`POST /meters`).',
  'billing.meter.updated': 'A meter changed: before/after of the fields sent (`POST /meters/{id}`).',
  'billing.meter.deactivated': 'A meter was deactivated (`POST /meters/{id}/deactivate`).',
  'charge.created':
    'A payment attempt on a checkout, recorded before the provider is asked (`POST /checkouts/{id}/confirm`).',
  'checkout.created': 'A checkout was opened (`POST /checkouts`, or a payment link visited).',
  'customer.created': 'A customer was created (`POST /customers`).',
  'customer.updated':
    'A customer changed: the names of the fields changed, never their values (`POST /customers/{id}`).',
  'event.resent': 'An event was sent again to one or every matching endpoint (`POST /events/{id}/resend`).',
  'file.created': 'A file was uploaded: purpose, size and SHA-256 (`POST /files`).',
  'invoice.voided': 'An invoice was voided (`POST /invoices/{id}/void`).',
  'membership.created': 'A user became a member of the application (CLI `users:grant`).',
  'membership.role_changed': "A member's role changed: before/after (CLI `users:grant`).",
  'oauth.code_reuse': 'An authorization code was presented again: its token family was revoked.',
  'oauth.refresh_token_reuse': 'A rotated refresh token was presented again: its token family was revoked.',
  'payment_intent.created': 'A payment intent was created (`POST /payment_intents`).',
  'payment_link.created': 'A payment link was created (`POST /payment_links`).',
  'payment_link.deactivated': 'A payment link was deactivated (`POST /payment_links/{id}/deactivate`).',
  'payout_schedule.updated': "An account's payout schedule was set: before/after (`POST /payout_schedules`).",
  'reconciliation_run.created': 'A reconciliation run was requested (`POST /reconciliation_runs`).',
  'reporting.report_run.created': 'A report run was requested (`POST /reporting/report_runs`).',
  'restricted_key.created': 'A restricted key was created (API, CLI `keys:create-restricted`, or by a roll).',
  'restricted_key.updated': "A restricted key's name or permissions changed: before/after.",
  'restricted_key.rolled': 'A restricted key was rolled: the old key, with its expiry; metadata names the new one.',
  'restricted_key.revoked': 'A restricted key was revoked.',
  'token.created': 'A card was tokenized by the test-mode vault for a checkout: the token and brand, never the card.',
  'user.login': 'A user signed in (`POST /oauth/authorize`, right password).',
  'webhook_endpoint.created': 'A webhook endpoint was created: the endpoint, its secret removed.',
  'webhook_endpoint.updated': 'A webhook endpoint changed: before/after of the fields changed.',
  'webhook_endpoint.deleted': 'A webhook endpoint was deleted.',
  'webhook_endpoint.secret_rotated': "A webhook endpoint's secret was rotated: the old secret's overlap end only.",
} as const;

/** What an audit row may name as its action: one of AUDIT_ACTIONS, or an event type. */
export type AuditAction = keyof typeof AUDIT_ACTIONS | EventType;
