import Stripe from 'stripe';
import {
  DisputeProviderError,
  type DisputeProvider,
  type EvidenceSubmission,
  type ProviderDispute,
  type ProviderDisputeStatus,
} from '../ports/dispute.port.js';

/** Stripe's statuses; an inquiry under review stays an inquiry here (the contract has no such status). */
const STATUS: Record<string, ProviderDisputeStatus> = {
  warning_needs_response: 'warning_needs_response',
  warning_under_review: 'warning_needs_response',
  warning_closed: 'warning_closed',
  needs_response: 'needs_response',
  under_review: 'under_review',
  won: 'won',
  lost: 'lost',
  prevented: 'won',
};

/**
 * Stripe disputes (https://docs.stripe.com/api/disputes): read, listed by `created`, accepted
 * (`POST /v1/disputes/{id}/close`, with an idempotency key), and evidence
 * forwarded as Stripe takes it: each file uploaded to the Files API (purpose `dispute_evidence`,
 * files.stripe.com, or the configured host), then one dispute update with the evidence (text
 * fields and the uploaded files' ids) and `submit: true`. Every write carries an idempotency key
 * derived from the submission's, so a retry after a crash repeats nothing.
 */
export class StripeDisputeProvider implements DisputeProvider {
  readonly name = 'stripe';

  constructor(private readonly stripe: Stripe) {}

  retrieve(reference: string): Promise<ProviderDispute> {
    return this.call(async () => toProviderDispute(await this.stripe.disputes.retrieve(reference)));
  }

  listRecent(since: Date, limit: number): Promise<ProviderDispute[]> {
    return this.call(async () => {
      const page = await this.stripe.disputes.list({
        created: { gte: Math.floor(since.getTime() / 1000) },
        limit: Math.min(limit, 100),
      });
      return page.data.map(toProviderDispute);
    });
  }

  submitEvidence(reference: string, submission: EvidenceSubmission): Promise<ProviderDispute> {
    return this.call(async () => {
      const evidence: Record<string, string> = { ...submission.text };
      for (const file of submission.files) {
        const uploaded = await this.stripe.files.create(
          {
            purpose: 'dispute_evidence',
            file: { data: file.body, name: file.filename, type: file.content_type },
          },
          { idempotencyKey: `${submission.idempotency_key}:${file.field}` },
        );
        evidence[file.field] = uploaded.id;
      }
      const updated = await this.stripe.disputes.update(
        reference,
        { evidence: evidence as Stripe.DisputeUpdateParams.Evidence, submit: true },
        { idempotencyKey: submission.idempotency_key },
      );
      return toProviderDispute(updated);
    });
  }

  /** POST /v1/disputes/{id}/close; a dispute Stripe already closed (a 400) is read back as it stands. */
  accept(reference: string, idempotencyKey: string): Promise<ProviderDispute> {
    return this.call(async () => {
      try {
        return toProviderDispute(await this.stripe.disputes.close(reference, {}, { idempotencyKey }));
      } catch (err) {
        if (!(err instanceof Stripe.errors.StripeInvalidRequestError) || err.statusCode === 404) throw err;
        const now = toProviderDispute(await this.stripe.disputes.retrieve(reference));
        if (now.status === 'lost' || now.status === 'warning_closed') return now;
        throw err;
      }
    });
  }

  private async call<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if (err instanceof Stripe.errors.StripeError) {
        const status = err.statusCode ?? 0;
        const refused = status >= 400 && status < 500 && status !== 429 && status !== 409;
        throw new DisputeProviderError(
          refused ? `Stripe refused the request (${err.code ?? err.type}): ${err.message}` : 'Stripe is unavailable',
          refused,
        );
      }
      throw err;
    }
  }
}

/**
 * Stripe's dispute in the port's vocabulary. The withdrawal and its fee are read from the
 * dispute's balance transactions: funds are withdrawn once one takes money out; the fee is the
 * sum of their fees when they are in the dispute's currency (else null: the service books its own).
 */
export function toProviderDispute(d: Stripe.Dispute): ProviderDispute {
  const status = STATUS[d.status];
  if (!status) throw new DisputeProviderError(`Stripe answered an unknown dispute status "${d.status}"`, false);
  const transactions = (d.balance_transactions ?? []).filter(
    (bt): bt is Stripe.BalanceTransaction => typeof bt === 'object' && bt !== null,
  );
  const sameCurrency = transactions.every((bt) => bt.currency.toLowerCase() === d.currency.toLowerCase());
  const card = (d as { payment_method_details?: { card?: { network_reason_code?: string | null } } })
    .payment_method_details?.card;
  const charge = typeof d.charge === 'string' ? d.charge : d.charge.id;
  const intent = typeof d.payment_intent === 'string' ? d.payment_intent : (d.payment_intent?.id ?? null);
  return {
    reference: d.id,
    charge_reference: intent ?? charge,
    status,
    amount: d.amount,
    currency: d.currency.toUpperCase(),
    reason: d.reason,
    network_reason_code: card?.network_reason_code ?? null,
    due_by: d.evidence_details?.due_by ? new Date(d.evidence_details.due_by * 1000) : null,
    funds_withdrawn: transactions.some((bt) => bt.amount < 0),
    fee: sameCurrency ? transactions.reduce((sum, bt) => sum + bt.fee, 0) : null,
    submission_count: d.evidence_details?.submission_count ?? 0,
    has_evidence: d.evidence_details?.has_evidence ?? false,
    created_at: new Date(d.created * 1000),
  };
}
