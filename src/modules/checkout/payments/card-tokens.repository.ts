import { Injectable } from '@nestjs/common';
import { ModeDb } from '../../../common/database/mode-db.js';
import { OwnedRecords } from '../../../common/database/owned-records.js';
import { CardToken } from '../entities/card-token.entity.js';

@Injectable()
export class CardTokensRepository extends OwnedRecords<CardToken> {
  constructor(db: ModeDb) {
    super(db, CardToken);
  }
}
