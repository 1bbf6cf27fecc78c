import { Injectable } from '@nestjs/common';
import { ModeDb } from '../../../common/database/mode-db.js';
import { OwnedRecords } from '../../../common/database/owned-records.js';
import { PaymentLink } from '../entities/payment-link.entity.js';

@Injectable()
export class PaymentLinksRepository extends OwnedRecords<PaymentLink> {
  constructor(db: ModeDb) {
    super(db, PaymentLink);
  }
}
