import { currentTraceparent } from '../../../common/observability/trace-context.js';
import { Injectable } from '@nestjs/common';
import type { EntityManager, SelectQueryBuilder } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity.js';
import { ModeDb } from '../../../common/database/mode-db.js';
import { isUuid } from '../../../common/ids.js';
import type { JobScope } from '../../../common/jobs/job-scope.js';
import type { ChargeStatus } from './charge.transitions.js';
import { Checkout } from '../entities/checkout.entity.js';
import { Charge } from '../entities/charge.entity.js';
import { PaymentMethod } from '../entities/payment-method.entity.js';

/** Charges and payment methods, owned by checkout; every read is scoped to the application. */
@Injectable()
export class ChargesRepository {
  constructor(private readonly db: ModeDb) {}

  /** One transaction of the mode: a payment's steps lock checkout, charge and target in it, in that order. */
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  async insert(charge: Partial<Charge>, manager?: EntityManager): Promise<Charge> {
    const repo = this.db.repository(Charge, manager);
    return repo.save(repo.create({ traceparent: currentTraceparent(), ...charge }));
  }

  /** Writes facts of a charge other than its status (the type refuses `status`: see writeStatus). */
  async update(
    applicationId: string,
    id: string,
    changes: Omit<Partial<Charge>, 'status'> & { status?: never },
    manager?: EntityManager,
  ): Promise<void> {
    await this.db
      .repository(Charge, manager)
      .update({ application_id: applicationId, id }, changes as QueryDeepPartialEntity<Charge>);
  }

  /** The one write of a charge's status, from charge.transitions.ts; returns the charge as stored. */
  async writeStatus(
    applicationId: string,
    id: string,
    status: ChargeStatus,
    changes: Omit<Partial<Charge>, 'status'>,
    manager?: EntityManager,
  ): Promise<Charge | null> {
    await this.db
      .repository(Charge, manager)
      .update({ application_id: applicationId, id }, { ...changes, status } as QueryDeepPartialEntity<Charge>);
    return this.find(applicationId, id, manager);
  }

  /** The charge, or null; `lock` holds it FOR UPDATE until `manager`'s transaction ends. */
  find(applicationId: string, id: string, manager?: EntityManager, lock = false): Promise<Charge | null> {
    if (!isUuid(id)) return Promise.resolve(null);
    return this.db.repository(Charge, manager).findOne({
      where: { application_id: applicationId, id },
      ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
  }

  async byIds(applicationId: string, ids: string[]): Promise<Map<string, Charge>> {
    const wanted = [...new Set(ids)];
    if (wanted.length === 0) return new Map();
    const rows = await this.query(applicationId).andWhere('c.id IN (:...wanted)', { wanted }).getMany();
    return new Map(rows.map((c) => [c.id, c]));
  }

  /** A charge by id, of any application of the mode (the 3-D Secure return route knows only the id). */
  byIdInMode(id: string): Promise<Charge | null> {
    return this.db.repository(Charge).findOne({ where: { id } });
  }

  /** The charge `provider` knows by `reference`, of any application of the mode (provider webhooks). */
  byProviderReference(provider: string, reference: string): Promise<Charge | null> {
    return this.db.repository(Charge).findOne({ where: { provider, reference_id: reference } });
  }

  /**
   * Pending charges of `providers` that their provider has answered (a reference) and that were
   * created before `before`, oldest first: the reconciliation job reads them back (a lost webhook).
   */
  pendingAtProviders(
    providers: string[],
    before: Date,
    limit: number,
    scope: Pick<JobScope, 'applicationIds'> = {},
  ): Promise<Charge[]> {
    const qb = this.db
      .repository(Charge)
      .createQueryBuilder('c')
      .where("c.status = 'pending'")
      .andWhere('c.reference_id IS NOT NULL')
      .andWhere('c.provider IN (:...providers)', { providers })
      .andWhere('c.created_at < :before', { before })
      // Only attempts a checkout waits on: an off-session attempt is settled by the intent's next
      // confirmation (OffSessionPaymentsService.settleDeadAttempt), which also moves the intent.
      .andWhere((outer) => {
        const waiting = outer
          .subQuery()
          .select('1')
          .from(Checkout, 'co')
          .where('co.application_id = c.application_id AND co.pending_charge_id = c.id')
          .getQuery();
        return `EXISTS ${waiting}`;
      });
    if (scope.applicationIds) qb.andWhere('c.application_id = ANY(:ids)', { ids: [...scope.applicationIds] });
    return qb.orderBy('c.created_at', 'ASC').limit(limit).getMany();
  }

  /**
   * Pending charges with no provider reference recorded before `before`, oldest first: their
   * request lost the database or its process between recording the attempt and applying the
   * provider's answer (ChargeReconciliationJob reads them back by their id).
   */
  unanswered(before: Date, limit: number, scope: Pick<JobScope, 'applicationIds'> = {}): Promise<Charge[]> {
    const qb = this.db
      .repository(Charge)
      .createQueryBuilder('c')
      .where("c.status = 'pending'")
      .andWhere('c.reference_id IS NULL')
      .andWhere('c.provider IS NOT NULL')
      .andWhere('c.created_at < :before', { before })
      // Only attempts a checkout waits on: an off-session attempt is settled by the intent's next
      // confirmation (OffSessionPaymentsService.settleDeadAttempt), which also moves the intent.
      .andWhere((outer) => {
        const waiting = outer
          .subQuery()
          .select('1')
          .from(Checkout, 'co')
          .where('co.application_id = c.application_id AND co.pending_charge_id = c.id')
          .getQuery();
        return `EXISTS ${waiting}`;
      });
    if (scope.applicationIds) qb.andWhere('c.application_id = ANY(:ids)', { ids: [...scope.applicationIds] });
    return qb.orderBy('c.created_at', 'ASC').limit(limit).getMany();
  }

  /**
   * Manual-capture authorizations whose hold ran out by `now` and that no capture or void has
   * claimed (docs/COLLECTION.md, "Manual capture"): the expiry job voids them, oldest first.
   */
  authorizationsDue(now: Date, limit: number, scope: Pick<JobScope, 'applicationIds'> = {}): Promise<Charge[]> {
    const qb = this.db
      .repository(Charge)
      .createQueryBuilder('c')
      .where("c.status = 'requires_capture'")
      .andWhere('c.expires_at <= :now', { now })
      // Unclaimed, or a void claim whose call failed (a capture claim is the merchant's to resume).
      .andWhere('(c.capture_claim_amount IS NULL OR (c.capture_claim_amount = 0 AND c.capture_claimed_at IS NULL))');
    if (scope.applicationIds) qb.andWhere('c.application_id = ANY(:ids)', { ids: [...scope.applicationIds] });
    return qb.orderBy('c.expires_at', 'ASC').limit(limit).getMany();
  }

  /**
   * Capture and void claims nobody is finishing (docs/COLLECTION.md, "Stuck claims"): the
   * authorization still `requires_capture`, a claim recorded, and its provider call failed
   * (`capture_claimed_at` cleared) or began before `claimedBefore` (its process died: a live call
   * gives up after PROVIDER_TIMEOUT_MS). Oldest first.
   */
  stuckCaptureClaims(
    claimedBefore: Date,
    limit: number,
    scope: Pick<JobScope, 'applicationIds'> = {},
  ): Promise<Charge[]> {
    const qb = this.db
      .repository(Charge)
      .createQueryBuilder('c')
      .where("c.status = 'requires_capture'")
      .andWhere('c.capture_claim_amount IS NOT NULL')
      .andWhere('(c.capture_claimed_at IS NULL OR c.capture_claimed_at <= :claimedBefore)', { claimedBefore });
    if (scope.applicationIds) qb.andWhere('c.application_id = ANY(:ids)', { ids: [...scope.applicationIds] });
    return qb.orderBy('c.updated_at', 'ASC').limit(limit).getMany();
  }

  /** Whether the customer has ever paid in this application and mode (a succeeded charge): first_time_transaction codes. */
  async customerHasPaid(applicationId: string, customerId: string, manager?: EntityManager): Promise<boolean> {
    const found = await this.db.repository(Charge, manager).findOne({
      where: { application_id: applicationId, customer_id: customerId, status: 'succeeded' },
      select: { id: true },
    });
    return found !== null;
  }

  query(applicationId: string): SelectQueryBuilder<Charge> {
    return this.db
      .repository(Charge)
      .createQueryBuilder('c')
      .where('c.application_id = :applicationId', { applicationId });
  }

  async insertPaymentMethod(pm: Partial<PaymentMethod>, manager?: EntityManager): Promise<PaymentMethod> {
    const repo = this.db.repository(PaymentMethod, manager);
    return repo.save(repo.create(pm));
  }

  findPaymentMethod(applicationId: string, id: string, manager?: EntityManager): Promise<PaymentMethod | null> {
    if (!isUuid(id)) return Promise.resolve(null);
    return this.db.repository(PaymentMethod, manager).findOneBy({ application_id: applicationId, id });
  }

  async paymentMethodsById(
    applicationId: string,
    ids: Array<string | null>,
    manager?: EntityManager,
  ): Promise<Map<string, PaymentMethod>> {
    const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
    if (wanted.length === 0) return new Map();
    const rows = await this.db
      .repository(PaymentMethod, manager)
      .createQueryBuilder('pm')
      .where('pm.application_id = :applicationId AND pm.id IN (:...wanted)', { applicationId, wanted })
      .getMany();
    return new Map(rows.map((pm) => [pm.id, pm]));
  }
}
