import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../common/clock.js';
import { countryOf, type Principal } from '../../common/context/principal.js';
import { AppError } from '../../common/errors/app-error.js';
import { Errors } from '../../common/errors/error-catalog.js';
import { EventRecorder } from '../../common/events/event-recorder.js';
import { IdempotencyScope } from '../../common/idempotency/idempotency-scope.js';
import { newId } from '../../common/ids.js';
import {
  FilterPatterns,
  runList,
  type ListEnvelope,
  type ListQuery,
  type ListSpec,
  ListFilters,
} from '../../common/list/index.js';
import { ChargesService } from '../checkout/index.js';
import { DisputeJournals } from './dispute.journals.js';
import { assertNotPastDue, mergeEvidence } from './dispute-evidence.js';
import { DisputeClosures } from './dispute-closures.service.js';
import { DisputeSubmissions } from './dispute-submissions.service.js';
import {
  DisputeRecords,
  disputeNumber,
  evidenceDetails,
  EVIDENCE_WINDOW_MS,
  NETWORK_REASON,
} from './dispute-records.js';
import { disputeTransition, type DisputeEvent, type DisputeStatus } from './dispute.transitions.js';
import { DisputeErrors } from './disputes.errors.js';
import { toDisputeResponse, type DisputeResponse } from './disputes.responses.js';
import { DisputesRepository } from './disputes.repository.js';
import type { OpenDisputeDto } from './dto/open-dispute.dto.js';
import type { UpdateDisputeDto } from './dto/update-dispute.dto.js';
import { Dispute } from './entities/dispute.entity.js';

export const DISPUTE_LIST: ListSpec = {
  filters: {
    amount: ListFilters.money,
    charge_id: ListFilters.uuid,
    closed_at: ListFilters.timestamp,
    created_at: ListFilters.timestamp,
    currency: ListFilters.currency,
    evidence_due_by: ListFilters.timestamp,
    id: ListFilters.uuid,
    labels: { type: 'labels', pattern: FilterPatterns.word },
    network_reason_code: ListFilters.word,
    number: ListFilters.word,
    opened_at: ListFilters.timestamp,
    provider_id: ListFilters.word,
    reason: ListFilters.word,
    reference_id: ListFilters.word,
    reinstated: ListFilters.boolean,
    settled: ListFilters.boolean,
    status: ListFilters.word,
    updated_at: ListFilters.timestamp,
  },
  sortable: ['created_at', 'amount'],
  search: ['id', 'number', 'reference_id', 'provider_id', 'reason', 'charge_id'],
  // Must stay the expression of the disputes_search_idx index.
  searchVector: `to_tsvector('simple', regexp_replace(lower(coalesce(d.number, '') || ' ' || coalesce(d.reference_id, '') || ' ' || coalesce(d.provider_id, '') || ' ' || coalesce(d.reason, '')), '[^[:alnum:]]+', ' ', 'g'))`,
  searchIds: ['charge_id'],
};

@Injectable()
export class DisputesService {
  constructor(
    private readonly disputes: DisputesRepository,
    private readonly charges: ChargesService,
    private readonly journals: DisputeJournals,
    private readonly events: EventRecorder,
    private readonly idempotency: IdempotencyScope,
    private readonly clock: Clock,
    private readonly records: DisputeRecords,
    private readonly submissions: DisputeSubmissions,
    private readonly closures: DisputeClosures,
  ) {}

  async retrieve(principal: Principal, id: string): Promise<DisputeResponse> {
    const applicationId = principal.application.id;
    const dispute = await this.disputes.findById(applicationId, countryOf(principal), id);
    if (!dispute) throw new AppError(Errors.E4004, `No dispute with id "${id}" in this country.`);
    return (await this.embed(applicationId, [dispute]))[0];
  }

  async list(principal: Principal, query: ListQuery): Promise<ListEnvelope<DisputeResponse>> {
    const qb = this.disputes.query(principal.application.id, countryOf(principal));
    const page = await runList(qb, DISPUTE_LIST, query, (d) => d);
    return { ...page, data: await this.embed(principal.application.id, page.data) };
  }

  /**
   * Test helper: the cardholder disputes a paid charge. The disputed amount leaves the charge's
   * balance for the application's `disputes` balance in one posting, in the same transaction as
   * the dispute and the charge's dispute fields. With an `Idempotency-Key` the dispute is the key's
   * recovery point, committed with it: a resend after a lost answer gets that dispute
   * (docs/IDEMPOTENCY.md), not E9501.
   */
  async openForTest(principal: Principal, dto: OpenDisputeDto): Promise<DisputeResponse> {
    const applicationId = principal.application.id;
    const country = countryOf(principal);
    const resumed = this.idempotency.resumes('dispute');
    if (resumed) return this.retrieve(principal, resumed);
    const dispute = await this.disputes.transaction(async (manager) => {
      const charge = await this.charges.lockById(applicationId, dto.charge_id, manager);
      if (!charge) throw new AppError(Errors.E4004, `No charge with id "${dto.charge_id}".`);
      if (charge.disputed || (await this.disputes.findByCharge(applicationId, charge.id, manager))) {
        throw new AppError(DisputeErrors.E9501, `Charge "${charge.id}" already has a dispute.`);
      }
      const refunded = Number(charge.amount_refunded ?? 0);
      const left = Number(charge.amount) - refunded;
      const amount = dto.amount ?? left;
      if (!charge.paid || amount > Number(charge.amount)) {
        throw new AppError(
          DisputeErrors.E9502,
          `Charge "${charge.id}" is ${charge.paid ? `of ${charge.amount}, less than amount` : 'not paid'}.`,
        );
      }
      if (amount > left || left <= 0) {
        throw new AppError(
          DisputeErrors.E9506,
          `Charge "${charge.id}" has ${left} of ${charge.amount} left after refunds of ${refunded}; cannot dispute ${amount}.`,
        );
      }
      const inquiry = dto.inquiry === true;
      const now = this.clock.now();
      const reason = dto.reason ?? 'fraudulent';
      const created = await this.disputes.insert(
        Object.assign(new Dispute(), {
          id: newId(),
          application_id: applicationId,
          country,
          number: disputeNumber(now),
          charge_id: charge.id,
          payment_intent: charge.payment_intent,
          currency: charge.currency,
          status: inquiry ? 'warning_needs_response' : 'needs_response',
          reason,
          network_reason_code: NETWORK_REASON[reason],
          idempotency_key: null,
          provider: charge.provider,
          provider_id: `dp_${charge.provider ?? 'sandbox'}_${newId().slice(-12)}`,
          reference_id: charge.reference_id,
          forex_quote_id: null,
          settled: false,
          reinstated: false,
          amount_from_merchant: amount,
          amount_from_app: 0,
          amount,
          scaling_factor: charge.scaling_factor,
          evidence: {},
          metadata: {},
          labels: [],
          evidence_due_by: new Date(now.getTime() + EVIDENCE_WINDOW_MS),
          funds_withdrawn: !inquiry,
          fee_booked: 0,
          submission_count: 0,
          has_evidence: false,
          submission_started_at: null,
          close_started_at: null,
          provider_synced_at: null,
          opened_at: now,
          closed_at: null,
          created_at: now,
          updated_at: now,
        }),
        manager,
      );
      await this.idempotency.checkpoint(manager, 'dispute', created.id);
      // An inquiry moves no money until it escalates (escalation is not built: docs/DISPUTES.md).
      if (!inquiry) await this.journals.opened(created, charge, manager);
      await this.charges.recordDispute(
        applicationId,
        charge.id,
        { dispute_id: created.id, dispute_status: created.status, dispute_reason: reason, dispute_amount: amount },
        manager,
      );
      const disputed = (await this.charges.lockById(applicationId, charge.id, manager)) ?? charge;
      await this.events.record(manager, {
        applicationId,
        type: 'charge.dispute.created',
        // As GET /disputes/{id} embeds it: the charge with its own embeds, read in this transaction.
        object: toDisputeResponse(created, (await this.charges.toResponses([disputed], () => null, manager))[0]),
      });
      return created;
    });
    return (await this.embed(applicationId, [dispute]))[0];
  }

  /**
   * POST /disputes/{id}: saves evidence (and metadata), and with `submit: true` submits it:
   * needs_response -> under_review. Refused on a closed dispute (E9504), under review (E9505) and
   * after evidence_due_by (E9503). Records charge.dispute.updated when anything changed.
   */
  async update(principal: Principal, id: string, dto: UpdateDisputeDto): Promise<DisputeResponse> {
    const applicationId = principal.application.id;
    // A dispute at a real provider: its evidence goes there (DisputeSubmissions).
    const submitted = dto.submit === true ? await this.submissions.submitAtProvider(principal, id, dto) : null;
    if (submitted) return (await this.embed(applicationId, [submitted]))[0];
    const dispute = await this.disputes.transaction(async (manager) => {
      const d = await this.lockDispute(principal, id, manager);
      const from = d.status as DisputeStatus;
      const to = disputeTransition(from, dto.submit === true ? 'submit' : 'save');
      const now = this.clock.now();
      assertNotPastDue(d, now);
      const details = evidenceDetails(d);
      const previous = mergeEvidence(d, dto);
      if (dto.submit === true) {
        // The sandbox accepts every submission.
        d.submission_count += 1;
        d.has_evidence = true;
        previous.evidence_details = details;
      }
      if (to !== from) {
        previous.status = from;
        d.status = to;
      }
      if (Object.keys(previous).length === 0) return d;
      d.updated_at = now;
      const saved = await this.disputes.save(d, manager);
      await this.records.record(manager, saved, 'charge.dispute.updated', previous);
      return saved;
    });
    return (await this.embed(applicationId, [dispute]))[0];
  }

  /**
   * POST /disputes/{id}/close: the merchant accepts the dispute (needs_response -> lost, an inquiry
   * -> warning_closed); a dispute at a real provider is accepted there first (DisputeClosures).
   */
  async close(principal: Principal, id: string): Promise<DisputeResponse> {
    const closed = await this.closures.closeAtProvider(principal, id);
    if (closed) return (await this.embed(principal.application.id, [closed]))[0];
    return this.decide(principal, id, 'accept');
  }

  /**
   * Closes the dispute by `event` (accept, or the provider's win/lose) in one transaction: the
   * status, the ledger's final posting, `settled`, the charge's dispute_status and charge.dispute.closed.
   */
  async decide(principal: Principal, id: string, event: Extract<DisputeEvent, 'accept' | 'win' | 'lose'>) {
    const applicationId = principal.application.id;
    const dispute = await this.disputes.transaction(async (manager) => {
      const d = await this.lockDispute(principal, id, manager);
      const from = d.status as DisputeStatus;
      const to = disputeTransition(from, event);
      const charge = await this.charges.lockById(applicationId, d.charge_id, manager);
      if (!charge) throw new AppError(Errors.E4004, `No charge with id "${d.charge_id}".`);
      if (to === 'won') await this.journals.won(d, charge, manager);
      if (to === 'lost') await this.journals.lost(d, charge, manager);
      const now = this.clock.now();
      Object.assign(d, {
        status: to,
        reinstated: to === 'won',
        settled: true,
        closed_at: now,
        updated_at: now,
      });
      const saved = await this.disputes.save(d, manager);
      const updated = await this.records.syncCharge(saved, manager);
      await this.events.record(manager, {
        applicationId,
        type: 'charge.dispute.closed',
        object: toDisputeResponse(saved, (await this.charges.toResponses([updated], () => null, manager))[0]),
        previous_attributes: { status: from, settled: false, reinstated: false, closed_at: null },
      });
      return saved;
    });
    return (await this.embed(applicationId, [dispute]))[0];
  }

  private async lockDispute(principal: Principal, id: string, manager: EntityManager): Promise<Dispute> {
    const d = await this.disputes.lock(principal.application.id, countryOf(principal), id, manager);
    if (!d) throw new AppError(Errors.E4004, `No dispute with id "${id}" in this country.`);
    return d;
  }

  private async embed(applicationId: string, disputes: Dispute[]): Promise<DisputeResponse[]> {
    if (disputes.length === 0) return [];
    const charges = await this.charges.chargesById(
      applicationId,
      disputes.map((d) => d.charge_id),
    );
    const list = [...charges.values()];
    const responses = new Map((await this.charges.toResponses(list)).map((c) => [c.id, c]));
    return disputes.map((d) => toDisputeResponse(d, responses.get(d.charge_id)!));
  }
}
