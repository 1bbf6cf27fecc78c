import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ModeDb } from '../../../common/database/mode-db.js';
import { OwnedRecords } from '../../../common/database/owned-records.js';
import { PaymentIntent, type PaymentIntentStatus } from '../entities/payment-intent.entity.js';

@Injectable()
export class PaymentIntentsRepository extends OwnedRecords<PaymentIntent> {
  constructor(db: ModeDb) {
    super(db, PaymentIntent);
  }

  /** The one write of a payment intent's status (payment-intent.transitions.ts), with the facts that change with it. */
  writeStatus(
    applicationId: string,
    id: string,
    status: PaymentIntentStatus,
    changes: Omit<Partial<PaymentIntent>, 'status'>,
    manager: EntityManager,
  ): Promise<void> {
    return this.write(applicationId, id, { ...changes, status }, manager);
  }
}
