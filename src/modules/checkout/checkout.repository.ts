import { Injectable } from '@nestjs/common';
import { Checkout } from './entities/checkout.entity.js';
import type { EntityManager, ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity.js';
import { ModeDb } from '../../common/database/mode-db.js';
import { AppError } from '../../common/errors/app-error.js';
import { Errors } from '../../common/errors/error-catalog.js';
import { isUuid } from '../../common/ids.js';

type Owned = ObjectLiteral & { id: string; application_id: string };
type EntityClass<T> = new () => T;

/** Every read is scoped to the application; the mode is the request's (ModeDb). */
@Injectable()
export class CollectionRepository {
  constructor(private readonly db: ModeDb) {}

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  async insert<T extends Owned>(entity: EntityClass<T>, record: Partial<T>, manager?: EntityManager): Promise<T> {
    const repo = this.db.repository(entity, manager);
    return repo.save(repo.create(record as T));
  }

  /** Writes fields other than the status (the type refuses `status`: see writeStatus). */
  update<T extends Owned>(
    entity: EntityClass<T>,
    applicationId: string,
    id: string,
    changes: Omit<Partial<T>, 'status'> & { status?: never },
    manager?: EntityManager,
  ): Promise<void> {
    return this.write(entity, applicationId, id, changes as Partial<T>, manager);
  }

  /**
   * The one write of a checkout's, payment intent's or invoice's status: `status` comes from the
   * aggregate's transitions file (checkout.transitions.ts, payment-intent.transitions.ts,
   * invoice.transitions.ts), with the facts that change with it.
   */
  writeStatus<T extends Owned & { status: string }>(
    entity: EntityClass<T>,
    applicationId: string,
    id: string,
    status: T['status'],
    changes: Omit<Partial<T>, 'status'>,
    manager?: EntityManager,
  ): Promise<void> {
    return this.write(entity, applicationId, id, { ...changes, status } as Partial<T>, manager);
  }

  /**
   * In one transaction: locks the application's record (E4004 with `notFound` when there is none),
   * lets `change` check it and say its new status (from the aggregate's transitions) and what else
   * changes (or throw), writes that and returns the record with the changes applied.
   */
  updateLocked<T extends Owned & { status: string }>(
    entity: EntityClass<T>,
    applicationId: string,
    id: string,
    notFound: string,
    change: (found: T) => { status: T['status'] } & Omit<Partial<T>, 'status'>,
  ): Promise<T> {
    return this.transaction(async (manager) => {
      const found = await this.find(entity, applicationId, id, manager, true);
      if (!found) throw new AppError(Errors.E4004, notFound);
      const { status, ...changes } = change(found);
      await this.writeStatus(entity, applicationId, id, status, changes as Omit<Partial<T>, 'status'>, manager);
      return Object.assign(found, changes, { status });
    });
  }

  private async write<T extends Owned>(
    entity: EntityClass<T>,
    applicationId: string,
    id: string,
    changes: Partial<T>,
    manager?: EntityManager,
  ): Promise<void> {
    await this.db
      .repository(entity, manager)
      .update({ application_id: applicationId, id } as never, changes as QueryDeepPartialEntity<T>);
  }

  /** The record of this application, or null; `lock` holds it FOR UPDATE until `manager`'s transaction ends. */
  find<T extends Owned>(
    entity: EntityClass<T>,
    applicationId: string,
    id: string,
    manager?: EntityManager,
    lock = false,
  ): Promise<T | null> {
    if (!isUuid(id)) return Promise.resolve(null);
    return this.db.repository(entity, manager).findOne({
      where: { application_id: applicationId, id } as never,
      ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
  }

  query<T extends Owned>(entity: EntityClass<T>, alias: string, applicationId: string): SelectQueryBuilder<T> {
    return this.db
      .repository(entity)
      .createQueryBuilder(alias)
      .where(`${alias}.application_id = :applicationId`, { applicationId });
  }

  async byIds<T extends Owned>(entity: EntityClass<T>, applicationId: string, ids: Array<string | null>) {
    const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
    if (wanted.length === 0) return new Map<string, T>();
    const rows = await this.query(entity, 'r', applicationId).andWhere('r.id IN (:...wanted)', { wanted }).getMany();
    return new Map(rows.map((r) => [r.id, r]));
  }

  /**
   * Open checkouts with expiry work, locked until `manager`'s transaction ends and skipped by other
   * replicas: those past `expires_at` (`checkouts`), or those whose pending PromptPay charge's QR
   * code ran out (`qr_codes`).
   */
  /** The checkout whose payment attempt in progress is `chargeId` (no lock), or null. */
  /**
   * The checkout a charge was an attempt of: the one it is pending on or paid, else (a failed
   * attempt is cleared from its checkout) the newest checkout of the charge's target.
   */
  async checkoutOfCharge(
    applicationId: string,
    charge: { id: string; payment_intent: string | null; invoice_id: string | null },
  ): Promise<Checkout | null> {
    const repo = this.db.repository(Checkout);
    const direct = await repo.findOne({
      where: [
        { application_id: applicationId, pending_charge_id: charge.id },
        { application_id: applicationId, charge_id: charge.id },
      ],
    });
    const target = charge.payment_intent ?? charge.invoice_id;
    if (direct || !target) return direct;
    return repo.findOne({ where: { application_id: applicationId, target_id: target }, order: { created_at: 'DESC' } });
  }

  checkoutPendingOn(applicationId: string, chargeId: string): Promise<Checkout | null> {
    return this.db
      .repository(Checkout)
      .findOne({ where: { application_id: applicationId, pending_charge_id: chargeId } });
  }

  /** The applications having open checkouts expired at `now` (read with no lock, before a sweep). */
  async applicationsWithExpiredCheckouts(now: Date, applicationIds: readonly string[] | null): Promise<string[]> {
    const qb = this.db
      .repository(Checkout)
      .createQueryBuilder('co')
      .select('DISTINCT co.application_id', 'application_id')
      .where(`co.status = 'open' AND co.expires_at <= :now`, { now });
    if (applicationIds) qb.andWhere('co.application_id IN (:...applicationIds)', { applicationIds });
    const rows = await qb.getRawMany<{ application_id: string }>();
    return rows.map((r) => r.application_id);
  }

  claimExpiring(
    manager: EntityManager,
    what: 'checkouts' | 'qr_codes',
    now: Date,
    applicationIds: readonly string[] | null,
    limit: number,
  ): Promise<Checkout[]> {
    const qb = this.db
      .repository(Checkout, manager)
      .createQueryBuilder('co')
      .where(`co.status = 'open'`)
      .limit(limit)
      .setLock('pessimistic_write')
      .setOnLocked('skip_locked');
    if (what === 'checkouts') qb.andWhere('co.expires_at <= :now', { now }).orderBy('co.expires_at');
    else {
      qb.andWhere(
        `co.pending_charge_id IN (SELECT c.id FROM ${this.db.table('charges')} c
                                   WHERE c.status = 'pending' AND c.expires_at <= :now)`,
        { now },
      ).orderBy('co.id');
    }
    if (applicationIds) qb.andWhere('co.application_id IN (:...applicationIds)', { applicationIds });
    return qb.getMany();
  }
}
