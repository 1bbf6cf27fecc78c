import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ModeDb } from '../../../common/database/mode-db.js';
import { OwnedRecords } from '../../../common/database/owned-records.js';
import { Invoice, type InvoiceStatus } from '../entities/invoice.entity.js';

@Injectable()
export class InvoicesRepository extends OwnedRecords<Invoice> {
  constructor(db: ModeDb) {
    super(db, Invoice);
  }

  /** The one write of an invoice's status (invoice.transitions.ts), with the facts that change with it. */
  writeStatus(
    applicationId: string,
    id: string,
    status: InvoiceStatus,
    changes: Omit<Partial<Invoice>, 'status'>,
    manager: EntityManager,
  ): Promise<void> {
    return this.write(applicationId, id, { ...changes, status }, manager);
  }
}
