import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ModeDb } from '../../common/database/mode-db.js';
import { PreparedStatements } from '../../common/database/prepared-statements.js';
import { postingStatement, type EntryInput, type PostingResult } from './posting.sql.js';

/** Writes journals: the posting statement, prepared, in the caller's transaction when it gives one. */
@Injectable()
export class PostingsRepository {
  constructor(
    private readonly db: ModeDb,
    private readonly prepared: PreparedStatements,
  ) {}

  /** Whether this request's postings go to the live ledger (the journal answers it before it is read back). */
  get livemode(): boolean {
    return this.db.livemode;
  }

  async post(
    journal: Parameters<typeof postingStatement>[1],
    entries: EntryInput[],
    manager?: EntityManager,
  ): Promise<PostingResult> {
    const { sql, params } = postingStatement(
      {
        balances: this.db.table('balances'),
        journals: this.db.table('journals'),
        entries: this.db.table('balance_transactions'),
        holdReleases: this.db.table('hold_releases'),
        entryHash: `"${this.db.schema}".ledger_entry_hash`,
      },
      journal,
      entries,
    );
    const [result] = await this.prepared.query<PostingResult>(manager ?? this.db.manager, 'ledger_post', sql, params);
    return result;
  }
}
