import { createHash } from 'node:crypto';
import { RequestContext } from '../../src/common/context/request-context.js';
import { ModeDb } from '../../src/common/database/mode-db.js';
import { BillingVerifyService, InvoicingJob } from '../../src/modules/billing/invoicing/index.js';
import type { Tenant, TestApp } from '../support/harness.js';

/** Runs the invoicing job (grace finalization, upcoming notices) for the tenant. */
export function runInvoicingJob(t: TestApp, tenant: Tenant) {
  return t.app.get(InvoicingJob).run({ applicationIds: [tenant.applicationId] });
}

/** billing:verify's check of one invoice (test mode). */
export function verifyInvoice(t: TestApp, invoiceId: string) {
  return t.app.get(RequestContext).runInMode('test', () => t.app.get(BillingVerifyService).verify({ invoiceId }));
}

/** Raw SQL on the test schema (a test tampers with a stored line). */
export function testSql<T = unknown>(t: TestApp, sql: string, params: unknown[] = []): Promise<T[]> {
  return t.app.get(RequestContext).runInMode('test', () => t.app.get(ModeDb).manager.query(sql, params));
}

/** The digest of docs/BILLING.md, computed the way a partner would from its own records. */
export function usageDigest(events: Array<{ id: string; value: string }>): string {
  const text = [...events]
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((e) => `${e.id}:${e.value}`)
    .join('\n');
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** `YYYY-MM-DD HH:MM:SS` of a meter event's timestamp. */
export const meterTime = (at: Date) => at.toISOString().slice(0, 19).replace('T', ' ');

export const DAY_MS = 86_400_000;

/** UTC midnight `days` days before the service clock's today. */
export function daysAgo(t: TestApp, days: number): Date {
  const now = t.clock.now();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - days * DAY_MS);
}
