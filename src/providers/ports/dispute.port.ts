/**
 * Disputes at a real provider (Opn, Stripe), in the service's vocabulary. The disputes module
 * applies a snapshot (from a webhook or read back by the reconciliation job) and forwards
 * evidence through this port; it never sees a provider's own shapes.
 */

/** The service's dispute statuses (docs/DISPUTES.md). */
export type ProviderDisputeStatus =
  'warning_needs_response' | 'needs_response' | 'under_review' | 'won' | 'lost' | 'warning_closed';

/** A provider's dispute as it stands now. */
export interface ProviderDispute {
  /** The provider's dispute id (`dspt_…`, `dp_…`): unique per provider and mode. */
  reference: string;
  /** The disputed charge's reference as the collection adapter stores it (Opn `chrg_…`, Stripe `pi_…`). */
  charge_reference: string;
  status: ProviderDisputeStatus;
  /** Minor units of `currency` (upper case). */
  amount: number;
  currency: string;
  /** Stripe's reason vocabulary (`fraudulent`, `product_not_received`, …; `general` when unknown). */
  reason: string;
  network_reason_code: string | null;
  /** The provider's response deadline; null when the provider states none. */
  due_by: Date | null;
  /** The disputed amount has left the merchant's balance at the provider. */
  funds_withdrawn: boolean;
  /** The dispute fee the provider charged (minor units of `currency`); null when it does not report one. */
  fee: number | null;
  submission_count: number;
  has_evidence: boolean;
  created_at: Date;
}

/** One evidence file, with its bytes, for the provider's upload. */
export interface EvidenceFile {
  /** The evidence field it fills (`receipt`, `uncategorized_file`, …). */
  field: string;
  /** This service's file id (the provider's upload is idempotent on it). */
  file_id: string;
  filename: string;
  content_type: string;
  body: Buffer;
}

export interface EvidenceSubmission {
  /** Text fields as the contract names them (`product_description`, …). */
  text: Record<string, string>;
  files: EvidenceFile[];
  /** Stable for one submission attempt: a retry after a crash sends the same keys. */
  idempotency_key: string;
}

/** Refusals and failures of a dispute call, with whether trying again may help. */
export class DisputeProviderError extends Error {
  constructor(
    message: string,
    /** The provider refused the request (4xx): trying the same again will not help. */
    readonly refused: boolean,
  ) {
    super(message);
    this.name = 'DisputeProviderError';
  }
}

export interface DisputeProvider {
  readonly name: string;
  /** The dispute now. Throws DisputeProviderError. */
  retrieve(reference: string): Promise<ProviderDispute>;
  /** Disputes created at or after `since`, newest first, up to `limit`. Throws DisputeProviderError. */
  listRecent(since: Date, limit: number): Promise<ProviderDispute[]>;
  /** Uploads the files and submits the evidence; answers the dispute after it. Throws DisputeProviderError. */
  submitEvidence(reference: string, submission: EvidenceSubmission): Promise<ProviderDispute>;
  /**
   * The merchant accepts the dispute (Stripe: close; Opn: accept): lost, or an inquiry closed.
   * One already accepted answers as it stands. Throws DisputeProviderError.
   */
  accept(reference: string, idempotencyKey: string): Promise<ProviderDispute>;
}

/** A webhook's dispute as a notice: `ignored` when it is in a state the service does not know. */
export function describeDispute(
  reference: string,
  read: () => ProviderDispute,
): { reference: string; status: 'disputed' | 'ignored'; dispute?: ProviderDispute } {
  try {
    return { reference, status: 'disputed', dispute: read() };
  } catch (err) {
    if (err instanceof DisputeProviderError) return { reference, status: 'ignored' };
    throw err;
  }
}
