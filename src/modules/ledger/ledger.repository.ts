import { Injectable } from '@nestjs/common';
import type { EntityManager, SelectQueryBuilder } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity.js';
import { ModeDb } from '../../common/database/mode-db.js';
import { isUuid, newId } from '../../common/ids.js';
import type { Customer } from '../customers/index.js';
import { Balance } from './entities/balance.entity.js';
import { BalanceTransaction } from './entities/balance-transaction.entity.js';
import { Charge } from './entities/charge.entity.js';
import { PaymentMethod } from './entities/payment-method.entity.js';
import { toBalanceResponse, type BalanceResponse } from './ledger.responses.js';

/** Reads of the ledger's tables; every read is scoped to the application, the mode is the request's. */
@Injectable()
export class LedgerRepository {
  constructor(private readonly db: ModeDb) {}

  balances(applicationId: string): SelectQueryBuilder<Balance> {
    return this.db
      .repository(Balance)
      .createQueryBuilder('b')
      .where('b.application_id = :applicationId', { applicationId });
  }

  entries(applicationId: string): SelectQueryBuilder<BalanceTransaction> {
    return this.db
      .repository(BalanceTransaction)
      .createQueryBuilder('bt')
      .where('bt.application_id = :applicationId', { applicationId });
  }

  /** The balance of an owner (account, customer, currency), created with zero amounts on first use. */
  async upsertBalance(
    owner: {
      applicationId: string;
      customerId: string | null;
      account: string;
      currency: string;
      name: string | null;
      description: string | null;
      scalingFactor: number;
    },
    now: Date,
    manager?: EntityManager,
  ): Promise<Balance> {
    const m = manager ?? this.db.manager;
    await m.query(
      `INSERT INTO ${this.db.table('balances')}
        (id, application_id, customer_id, account, currency, name, description, available, hold, scaling_factor, created_at, updated_at)
        VALUES ($1, $2, $3, $4, $5, $6, $7, 0, 0, $8, $9, $9) ON CONFLICT DO NOTHING`,
      [
        newId(),
        owner.applicationId,
        owner.customerId,
        owner.account,
        owner.currency,
        owner.name,
        owner.description,
        owner.scalingFactor,
        now,
      ],
    );
    const balance = await this.db
      .repository(Balance, m)
      .createQueryBuilder('b')
      .where('b.application_id = :applicationId AND b.account = :account AND b.currency = :currency', {
        applicationId: owner.applicationId,
        account: owner.account,
        currency: owner.currency,
      })
      .andWhere(owner.customerId ? 'b.customer_id = :customerId' : 'b.customer_id IS NULL', {
        customerId: owner.customerId,
      })
      .getOne();
    if (!balance) throw new Error('balance vanished right after its upsert');
    return balance;
  }

  findBalance(applicationId: string, id: string, manager?: EntityManager): Promise<Balance | null> {
    if (!isUuid(id)) return Promise.resolve(null);
    return this.db.repository(Balance, manager).findOneBy({ application_id: applicationId, id });
  }

  findEntry(applicationId: string, id: string): Promise<BalanceTransaction | null> {
    if (!isUuid(id)) return Promise.resolve(null);
    return this.db.repository(BalanceTransaction).findOneBy({ application_id: applicationId, id });
  }

  async customersById(applicationId: string, ids: Array<string | null>): Promise<Map<string, Customer>> {
    const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
    if (wanted.length === 0) return new Map();
    const rows = await this.db
      .repository<Customer>('customers')
      .createQueryBuilder('c')
      .where('c.application_id = :applicationId AND c.id IN (:...wanted)', { applicationId, wanted })
      .getMany();
    return new Map(rows.map((c) => [c.id, c]));
  }

  /** Balance responses (with their customers) by id, for embedding. */
  async balanceResponses(applicationId: string, ids: Array<string | null>): Promise<Map<string, BalanceResponse>> {
    const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
    if (wanted.length === 0) return new Map();
    const balances = await this.balances(applicationId).andWhere('b.id IN (:...wanted)', { wanted }).getMany();
    const customers = await this.customersById(
      applicationId,
      balances.map((b) => b.customer_id),
    );
    return new Map(balances.map((b) => [b.id, toBalanceResponse(b, customers.get(b.customer_id ?? '') ?? null)]));
  }

  async insertCharge(charge: Partial<Charge>, manager?: EntityManager): Promise<Charge> {
    const repo = this.db.repository(Charge, manager);
    return repo.save(repo.create(charge));
  }

  async updateCharge(
    applicationId: string,
    id: string,
    changes: Partial<Charge>,
    manager?: EntityManager,
  ): Promise<Charge | null> {
    await this.db
      .repository(Charge, manager)
      .update({ application_id: applicationId, id }, changes as QueryDeepPartialEntity<Charge>);
    return this.findCharge(applicationId, id, manager);
  }

  findCharge(applicationId: string, id: string, manager?: EntityManager, lock = false): Promise<Charge | null> {
    if (!isUuid(id)) return Promise.resolve(null);
    return this.db.repository(Charge, manager).findOne({
      where: { application_id: applicationId, id },
      ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
  }

  async insertPaymentMethod(pm: Partial<PaymentMethod>, manager?: EntityManager): Promise<PaymentMethod> {
    const repo = this.db.repository(PaymentMethod, manager);
    return repo.save(repo.create(pm));
  }

  findPaymentMethod(applicationId: string, id: string, manager?: EntityManager): Promise<PaymentMethod | null> {
    if (!isUuid(id)) return Promise.resolve(null);
    return this.db.repository(PaymentMethod, manager).findOneBy({ application_id: applicationId, id });
  }

  async paymentMethodsById(applicationId: string, ids: Array<string | null>): Promise<Map<string, PaymentMethod>> {
    const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
    if (wanted.length === 0) return new Map();
    const rows = await this.db
      .repository(PaymentMethod)
      .createQueryBuilder('pm')
      .where('pm.application_id = :applicationId AND pm.id IN (:...wanted)', { applicationId, wanted })
      .getMany();
    return new Map(rows.map((pm) => [pm.id, pm]));
  }

  async chargesById(applicationId: string, ids: string[]): Promise<Map<string, Charge>> {
    const wanted = [...new Set(ids)];
    if (wanted.length === 0) return new Map();
    const rows = await this.db
      .repository(Charge)
      .createQueryBuilder('c')
      .where('c.application_id = :applicationId AND c.id IN (:...wanted)', { applicationId, wanted })
      .getMany();
    return new Map(rows.map((c) => [c.id, c]));
  }
}
