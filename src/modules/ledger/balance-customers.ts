import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { EmbeddedCustomer } from './ledger.responses.js';

/** Customer records by id, as their owner answers for them. */
/** With `manager`: read in the caller's transaction (the embedded database serves one connection at a time while it is open). */
export type CustomerRecordsById = (
  applicationId: string,
  ids: string[],
  manager?: EntityManager,
) => Promise<Map<string, EmbeddedCustomer>>;

/**
 * The port through which a balance embeds its customer. The ledger is a sink: it reads no other
 * module's table, so the customers module supplies its records here in its `onModuleInit`.
 */
@Injectable()
export class BalanceCustomers {
  private lookup?: CustomerRecordsById;

  supply(lookup: CustomerRecordsById): void {
    this.lookup = lookup;
  }

  async byIds(
    applicationId: string,
    ids: Array<string | null>,
    manager?: EntityManager,
  ): Promise<Map<string, EmbeddedCustomer>> {
    const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
    if (wanted.length === 0) return new Map();
    if (!this.lookup) throw new Error('BalanceCustomers: no module supplies customer records');
    return this.lookup(applicationId, wanted, manager);
  }
}
