import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ModeDb } from '../../../common/database/mode-db.js';
import { OwnedRecords } from '../../../common/database/owned-records.js';
import { Checkout, type CheckoutStatus } from '../entities/checkout.entity.js';

/** What the expiry sweep claims: checkouts past `expires_at`, or those whose pending PromptPay QR code ran out. */
export type ExpiryWork = 'checkouts' | 'qr_codes';

@Injectable()
export class CheckoutsRepository extends OwnedRecords<Checkout> {
  constructor(db: ModeDb) {
    super(db, Checkout);
  }

  /** The one write of a checkout's status (checkout.transitions.ts), with the facts that change with it. */
  writeStatus(
    applicationId: string,
    id: string,
    status: CheckoutStatus,
    changes: Omit<Partial<Checkout>, 'status'>,
    manager: EntityManager,
  ): Promise<void> {
    return this.write(applicationId, id, { ...changes, status }, manager);
  }

  /**
   * The checkout a charge was an attempt of: the one it is pending on or paid, else (a failed
   * attempt is cleared from its checkout) the newest checkout of the charge's target.
   */
  async ofCharge(
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

  /** The checkout whose payment attempt in progress is `chargeId` (no lock), or null. */
  pendingOn(applicationId: string, chargeId: string): Promise<Checkout | null> {
    return this.db
      .repository(Checkout)
      .findOne({ where: { application_id: applicationId, pending_charge_id: chargeId } });
  }

  /** The applications having open checkouts expired at `now` (read with no lock, before a sweep). */
  async applicationsWithExpired(now: Date, applicationIds: readonly string[] | null): Promise<string[]> {
    const qb = this.db
      .repository(Checkout)
      .createQueryBuilder('co')
      .select('DISTINCT co.application_id', 'application_id')
      .where(`co.status = 'open' AND co.expires_at <= :now`, { now });
    if (applicationIds) qb.andWhere('co.application_id IN (:...applicationIds)', { applicationIds });
    const rows = await qb.getRawMany<{ application_id: string }>();
    return rows.map((r) => r.application_id);
  }

  /**
   * Open checkouts with expiry work (`what`), locked until `manager`'s transaction ends and skipped
   * by other replicas.
   */
  claimExpiring(
    manager: EntityManager,
    what: ExpiryWork,
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
