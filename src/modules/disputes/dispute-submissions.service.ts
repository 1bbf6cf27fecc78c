import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '../../common/clock.js';
import { countryOf, type Principal } from '../../common/context/principal.js';
import { AppError } from '../../common/errors/app-error.js';
import { Errors } from '../../common/errors/error-catalog.js';
import {
  DisputeProviderError,
  type DisputeProvider,
  type EvidenceFile,
  type ProviderDispute,
} from '../../providers/ports/dispute.port.js';
import { ProviderAdapters } from '../../providers/provider-adapters.js';
import { FilesService } from '../files/index.js';
import { assertNotPastDue, mergeEvidence } from './dispute-evidence.js';
import { DisputeRecords, evidenceDetails } from './dispute-records.js';
import { disputeTransition, type DisputeStatus } from './dispute.transitions.js';
import { DisputeErrors } from './disputes.errors.js';
import { DisputesRepository } from './disputes.repository.js';
import { EVIDENCE_FILE_FIELDS, EVIDENCE_TEXT_FIELDS, type UpdateDisputeDto } from './dto/update-dispute.dto.js';
import type { Dispute } from './entities/dispute.entity.js';

/**
 * Evidence submitted (`submit: true`) on a dispute a real provider reported: forwarded to it
 * (Stripe: files to the Files API, then the dispute updated with `submit: true`; Opn: documents,
 * then the response message), as load, decide, call, record:
 * 1. the evidence files are checked (this application's files of purpose dispute_evidence, E9508);
 * 2. under the dispute's lock: the transition (E9504/E9505), the due date (E9503), the evidence
 *    merged and saved with the recovery point `submission_started_at`; committed;
 * 3. the provider is called with no lock held; its idempotency key names the dispute and the
 *    attempt (`submission_count + 1`), so a retry after a crash (or a lost answer) repeats nothing;
 * 4. the provider's answer is recorded under the lock: status, evidence_details, due date, the
 *    recovery point cleared, charge.dispute.updated.
 * A refusal by the provider (E9509) clears the recovery point; no answer (E5002) keeps it: the
 * next submission or the reconciliation job's read-back finishes it.
 */
@Injectable()
export class DisputeSubmissions {
  private readonly logger = new Logger(DisputeSubmissions.name);

  constructor(
    private readonly disputes: DisputesRepository,
    private readonly adapters: ProviderAdapters,
    private readonly files: FilesService,
    private readonly records: DisputeRecords,
    private readonly clock: Clock,
  ) {}

  /** Submits at the dispute's provider; null when the dispute is not at a real provider (the sandbox decides). */
  async submitAtProvider(principal: Principal, id: string, dto: UpdateDisputeDto): Promise<Dispute | null> {
    const applicationId = principal.application.id;
    const country = countryOf(principal);
    const found = await this.disputes.findById(applicationId, country, id);
    const provider =
      found?.provider && found.provider_id ? this.adapters.disputesFor(found.provider, principal.mode) : undefined;
    if (!found || !provider) return null;
    // The documented order of refusals (transition, due date) before the files are looked at.
    disputeTransition(found.status as DisputeStatus, 'submit');
    assertNotPastDue(found, this.clock.now());
    const fileIds = {
      ...pick(found.evidence, EVIDENCE_FILE_FIELDS),
      ...pick({ ...dto.evidence }, EVIDENCE_FILE_FIELDS),
    };
    await this.checkFiles(principal, fileIds);

    const started = await this.disputes.transaction(async (manager) => {
      const d = await this.lock(principal, id, manager);
      disputeTransition(d.status as DisputeStatus, 'submit');
      const now = this.clock.now();
      assertNotPastDue(d, now);
      const previous = mergeEvidence(d, dto);
      d.submission_started_at ??= now;
      d.updated_at = now;
      return { dispute: await this.disputes.save(d, manager), previous };
    });
    const d = started.dispute;
    const files = await this.evidenceFiles(principal, pick(d.evidence, EVIDENCE_FILE_FIELDS));
    let answer: ProviderDispute;
    try {
      answer = await provider.submitEvidence(d.provider_id!, {
        text: pick(d.evidence, EVIDENCE_TEXT_FIELDS),
        files,
        idempotency_key: `dispute:${d.id}:evidence:${d.submission_count + 1}`,
      });
    } catch (err) {
      if (!(err instanceof DisputeProviderError)) throw err;
      return this.failed(principal, provider, d, err);
    }
    return this.disputes.transaction(async (manager) => {
      const locked = await this.lock(principal, id, manager);
      if (locked.submission_started_at === null) return locked; // recorded meanwhile (a read-back)
      const from = locked.status as DisputeStatus;
      const details = evidenceDetails(locked);
      const to = disputeTransition(from, 'submit');
      const now = this.clock.now();
      Object.assign(locked, {
        status: to,
        submission_count: Math.max(answer.submission_count, locked.submission_count + 1),
        has_evidence: true,
        evidence_due_by: answer.due_by ?? locked.evidence_due_by,
        submission_started_at: null,
        provider_synced_at: now,
        updated_at: now,
      });
      const saved = await this.disputes.save(locked, manager);
      const previous = { ...started.previous, evidence_details: details, ...(to !== from ? { status: from } : {}) };
      await this.records.record(manager, saved, 'charge.dispute.updated', previous);
      return saved;
    });
  }

  /** Every evidence file must be a dispute_evidence file of this application (in this mode). */
  private async checkFiles(principal: Principal, fileIds: Record<string, string>): Promise<void> {
    for (const [field, fileId] of Object.entries(fileIds)) {
      const file = await this.files.retrieve(principal, fileId).catch((err: unknown) => {
        if (err instanceof AppError) return null;
        throw err;
      });
      if (!file || file.purpose !== 'dispute_evidence') {
        throw new AppError(
          DisputeErrors.E9508,
          `evidence.${field}: "${fileId}" is not a file of this application with purpose dispute_evidence.`,
        );
      }
    }
  }

  private async evidenceFiles(principal: Principal, fileIds: Record<string, string>): Promise<EvidenceFile[]> {
    const out: EvidenceFile[] = [];
    for (const [field, fileId] of Object.entries(fileIds)) {
      const contents = await this.files.bytes(principal, fileId);
      out.push({
        field,
        file_id: fileId,
        filename: contents.filename,
        content_type: contents.contentType,
        body: contents.body,
      });
    }
    return out;
  }

  /** The provider refused (the recovery point is cleared: nothing was submitted) or did not answer (kept). */
  private async failed(
    principal: Principal,
    provider: DisputeProvider,
    d: Dispute,
    err: DisputeProviderError,
  ): Promise<never> {
    this.logger.warn(`${provider.name} dispute ${d.provider_id}: evidence not submitted: ${err.message}`);
    if (!err.refused) {
      throw new AppError(
        Errors.E5002,
        `${err.message}. The submission is retried with the same request by submitting again.`,
      );
    }
    await this.disputes.transaction(async (manager) => {
      const locked = await this.lock(principal, d.id, manager);
      locked.submission_started_at = null;
      await this.disputes.save(locked, manager);
    });
    throw new AppError(DisputeErrors.E9509, `${err.message}.`);
  }

  private async lock(principal: Principal, id: string, manager: Parameters<DisputesRepository['lock']>[3]) {
    const d = await this.disputes.lock(principal.application.id, countryOf(principal), id, manager);
    if (!d) throw new AppError(Errors.E4004, `No dispute with id "${id}" in this country.`);
    return d;
  }
}

/** The string fields of `o` named in `fields`. */
function pick(o: Record<string, unknown>, fields: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const field of fields) {
    const value = o[field];
    if (typeof value === 'string' && value) out[field] = value;
  }
  return out;
}
