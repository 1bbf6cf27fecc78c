import { randomInt } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AppError } from '../../common/errors/app-error.js';
import { Errors } from '../../common/errors/error-catalog.js';
import { EventRecorder } from '../../common/events/event-recorder.js';
import { ChargesService, type Charge } from '../checkout/index.js';
import { toDisputeResponse } from './disputes.responses.js';
import type { Dispute } from './entities/dispute.entity.js';

/** Card-network reason codes (Visa) of the sandbox provider's disputes. */
export const NETWORK_REASON: Record<string, string> = {
  fraudulent: '10.4',
  duplicate: '12.6.1',
  product_not_received: '13.1',
  product_unacceptable: '13.3',
  subscription_canceled: '13.2',
  credit_not_processed: '13.6',
  unrecognized: '10.4',
  general: '13.7',
};

/** The evidence window when the provider states no due date (the sandbox, Opn). */
export const EVIDENCE_WINDOW_MS = 7 * 24 * 3600 * 1000;

const NUMBER_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';

/** `DP-<yyyymmdd>-<6 characters>`: the dispute's number for people. */
export function disputeNumber(now: Date): string {
  const day = now.toISOString().slice(0, 10).replaceAll('-', '');
  const tail = Array.from({ length: 6 }, () => NUMBER_ALPHABET[randomInt(NUMBER_ALPHABET.length)]).join('');
  return `DP-${day}-${tail}`;
}

export type DisputeEventType = 'charge.dispute.created' | 'charge.dispute.updated' | 'charge.dispute.closed';

/**
 * What every dispute change does besides its own row, in the caller's transaction: the charge's
 * dispute fields follow (through checkout's exported API), and the event carries the dispute as
 * GET /disputes/{id} embeds it, read in that transaction.
 */
@Injectable()
export class DisputeRecords {
  constructor(
    private readonly charges: ChargesService,
    private readonly events: EventRecorder,
  ) {}

  /** The charge's dispute fields follow the dispute's status. */
  async syncCharge(d: Dispute, manager: EntityManager): Promise<Charge> {
    await this.charges.recordDispute(
      d.application_id,
      d.charge_id,
      { dispute_id: d.id, dispute_status: d.status, dispute_reason: d.reason, dispute_amount: Number(d.amount) },
      manager,
    );
    const charge = await this.charges.lockById(d.application_id, d.charge_id, manager);
    if (!charge) throw new AppError(Errors.E4004, `No charge with id "${d.charge_id}".`);
    return charge;
  }

  /** Syncs the charge and records `type` about the dispute. */
  async record(
    manager: EntityManager,
    d: Dispute,
    type: DisputeEventType,
    previous?: Record<string, unknown>,
  ): Promise<void> {
    const charge = await this.syncCharge(d, manager);
    await this.events.record(manager, {
      applicationId: d.application_id,
      type,
      object: toDisputeResponse(d, (await this.charges.toResponses([charge], () => null, manager))[0]),
      ...(previous ? { previous_attributes: previous } : {}),
    });
  }
}

/** evidence_details as the previous_attributes of an event show them. */
export const evidenceDetails = (d: Pick<Dispute, 'evidence_due_by' | 'has_evidence' | 'submission_count'>) => ({
  due_by: d.evidence_due_by ? d.evidence_due_by.toISOString() : null,
  has_evidence: d.has_evidence,
  submission_count: d.submission_count,
});
