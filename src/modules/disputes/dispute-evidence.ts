import { AppError } from '../../common/errors/app-error.js';
import { DisputeErrors } from './disputes.errors.js';
import type { UpdateDisputeDto } from './dto/update-dispute.dto.js';
import type { Dispute } from './entities/dispute.entity.js';
import { evidenceDetails } from './dispute-records.js';

/** Evidence after `due_by` is refused (E9503); the due date is the provider's when it states one. */
export function assertNotPastDue(d: Pick<Dispute, 'id' | 'evidence_due_by'>, now: Date): void {
  if (d.evidence_due_by && now.getTime() > d.evidence_due_by.getTime()) {
    throw new AppError(
      DisputeErrors.E9503,
      `The evidence of dispute "${d.id}" was due by ${d.evidence_due_by.toISOString()}.`,
    );
  }
}

/**
 * Merges the request's evidence and metadata into `d` (given fields replace the saved ones) and
 * answers the previous values of what changed (an event's previous_attributes).
 */
export function mergeEvidence(d: Dispute, dto: UpdateDisputeDto): Record<string, unknown> {
  const previous: Record<string, unknown> = {};
  const details = evidenceDetails(d);
  if (dto.evidence) {
    const evidence = { ...d.evidence, ...definedOnly(dto.evidence) };
    if (JSON.stringify(evidence) !== JSON.stringify(d.evidence)) {
      previous.evidence = d.evidence;
      d.evidence = evidence;
      d.has_evidence = Object.keys(evidence).length > 0;
    }
  }
  if (dto.metadata) {
    const metadata = { ...d.metadata, ...dto.metadata };
    if (JSON.stringify(metadata) !== JSON.stringify(d.metadata)) {
      previous.metadata = d.metadata;
      d.metadata = metadata;
    }
  }
  if (d.has_evidence !== details.has_evidence) previous.evidence_details = details;
  return previous;
}

/** The fields the request gave (class-transformer leaves absent ones undefined). */
function definedOnly(o: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}
