import {
  DisputeProviderError,
  type DisputeProvider,
  type EvidenceSubmission,
  type ProviderDispute,
  type ProviderDisputeStatus,
} from '../ports/dispute.port.js';
import type { OpnApiError, OpnClient, OpnObject } from './opn-client.js';
import { failureFacts } from './opn-errors.js';

/** Opn's dispute (https://docs.opn.ooo/disputes-api), as far as the service reads it. */
export interface OpnDispute extends OpnObject {
  object: 'dispute';
  id: string;
  amount: number;
  currency: string;
  status: string;
  charge: string | { id: string };
  reason_code?: string | null;
  message?: string | null;
  documents?: { data?: unknown[] } | null;
  created_at?: string;
  created?: string;
}

/** Opn's statuses: `open` awaits the merchant, `pending` is under review, `closed` was accepted by the merchant. */
const STATUS: Record<string, ProviderDisputeStatus> = {
  open: 'needs_response',
  pending: 'under_review',
  won: 'won',
  lost: 'lost',
  closed: 'lost',
};

/** Opn's reason codes, by the words they carry, in Stripe's reason vocabulary. */
const REASONS: Array<[RegExp, string]> = [
  [/fraud|unauthori[sz]ed|not_recogni[sz]ed/, 'fraudulent'],
  [/duplicate|paid_by_other/, 'duplicate'],
  [/not_provided|not_received/, 'product_not_received'],
  [/not_as_described|defective|quality/, 'product_unacceptable'],
  [/cancel|recurring/, 'subscription_canceled'],
  [/credit|refund/, 'credit_not_processed'],
];

/**
 * Opn disputes: read (GET /disputes/{id}, GET /disputes), accepted (PATCH /disputes/{id}/accept),
 * and evidence forwarded as Opn takes it:
 * each file to POST /disputes/{id}/documents (multipart `file`), then the text fields as the
 * dispute's response `message` (PATCH /disputes/{id}), which puts the dispute under review.
 * Opn reports no due date, no fee and no submission counter: `due_by` and `fee` are null (the
 * service applies its own, docs/DISPUTES.md), and a dispute with a response counts one submission.
 */
export class OpnDisputeProvider implements DisputeProvider {
  readonly name = 'opn';

  constructor(private readonly client: OpnClient) {}

  retrieve(reference: string): Promise<ProviderDispute> {
    return this.call(async () => toProviderDispute(await this.client.get<OpnDispute>(`/disputes/${reference}`)));
  }

  listRecent(since: Date, limit: number): Promise<ProviderDispute[]> {
    return this.call(async () => {
      const query = new URLSearchParams({
        from: since.toISOString(),
        limit: String(Math.min(limit, 100)),
        order: 'reverse_chronological',
      });
      const list = await this.client.get<OpnObject & { data: OpnDispute[] }>(`/disputes?${query.toString()}`);
      return (list.data ?? []).filter((d) => d.object === 'dispute').map(toProviderDispute);
    });
  }

  submitEvidence(reference: string, submission: EvidenceSubmission): Promise<ProviderDispute> {
    return this.call(async () => {
      for (const file of submission.files) {
        await this.client.postFile(
          `/disputes/${reference}/documents`,
          'file',
          { filename: file.filename, contentType: file.content_type, body: file.body },
          `${submission.idempotency_key}:${file.field}`,
        );
      }
      const message = Object.entries(submission.text)
        .map(([field, value]) => `${field}: ${value}`)
        .join('\n\n');
      const updated = await this.client.patch<OpnDispute>(`/disputes/${reference}`, {
        message: message || 'Evidence documents attached.',
      });
      return toProviderDispute(updated);
    });
  }

  /**
   * PATCH /disputes/{id}/accept (omise-ruby's Dispute#accept; Opn answers the dispute `lost`). A
   * dispute Opn already closed refuses it (4xx): read back as it stands.
   */
  accept(reference: string): Promise<ProviderDispute> {
    return this.call(async () => {
      try {
        return toProviderDispute(await this.client.patch<OpnDispute>(`/disputes/${reference}/accept`, {}));
      } catch (err) {
        const facts = failureFacts(err);
        if (!facts || facts.retryable || facts.outcomeUnknown || (err as OpnApiError).httpStatus === 404) throw err;
        const now = toProviderDispute(await this.client.get<OpnDispute>(`/disputes/${reference}`));
        if (now.status === 'lost' || now.status === 'won') return now;
        throw err;
      }
    });
  }

  private async call<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      const facts = failureFacts(err);
      if (!facts) throw err;
      throw new DisputeProviderError(facts.message, !facts.retryable && !facts.outcomeUnknown);
    }
  }
}

export function toProviderDispute(d: OpnDispute): ProviderDispute {
  const status = STATUS[d.status];
  if (!status) throw new DisputeProviderError(`Opn answered an unknown dispute status "${d.status}"`, false);
  const code = (d.reason_code ?? '').toLowerCase();
  const responded = Boolean(d.message) || (d.documents?.data?.length ?? 0) > 0;
  return {
    reference: d.id,
    charge_reference: typeof d.charge === 'string' ? d.charge : d.charge.id,
    status,
    amount: Number(d.amount),
    currency: String(d.currency).toUpperCase(),
    reason: REASONS.find(([pattern]) => pattern.test(code))?.[1] ?? 'general',
    network_reason_code: null,
    due_by: null,
    funds_withdrawn: true,
    fee: null,
    submission_count: responded && status !== 'needs_response' ? 1 : 0,
    has_evidence: responded,
    created_at: new Date(d.created_at ?? d.created ?? Date.now()),
  };
}
