import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ModeDb } from '../../common/database/mode-db.js';

/** A verified provider notice, as recorded. */
export interface ProviderNoticeRow {
  provider: string;
  provider_event_id: string;
  kind: string;
  reference: string;
  status: string;
}

/**
 * The only door to `provider_events` (per mode): one row per (provider, provider_event_id). A
 * notice is claimed inside the transaction that applies it (applied_at set), so a replay finds the
 * row and changes nothing; notices with nothing to apply are recorded unclaimed (applied_at null),
 * and a later delivery of the same event may still claim them.
 */
@Injectable()
export class ProviderEventsRepository {
  constructor(private readonly db: ModeDb) {}

  /** Claims the notice in `manager`'s transaction: true the first time, false once applied. */
  async claim(notice: ProviderNoticeRow, at: Date, manager: EntityManager): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      `INSERT INTO ${this.db.table('provider_events')} AS e
         (provider, provider_event_id, kind, reference, status, outcome, received_at, applied_at)
       VALUES ($1, $2, $3, $4, $5, 'applied', $6, $6)
       ON CONFLICT (provider, provider_event_id)
         DO UPDATE SET outcome = 'applied', applied_at = EXCLUDED.applied_at WHERE e.applied_at IS NULL
       RETURNING provider_event_id`,
      [notice.provider, notice.provider_event_id, notice.kind, notice.reference, notice.status, at],
    );
    return rows.length === 1;
  }

  /** Records a notice that changed nothing (`ignored` kind, `unmatched` reference), unless recorded before. */
  async record(notice: ProviderNoticeRow, outcome: 'ignored' | 'unmatched', at: Date): Promise<void> {
    await this.db.manager.query(
      `INSERT INTO ${this.db.table('provider_events')}
         (provider, provider_event_id, kind, reference, status, outcome, received_at, applied_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, NULL)
       ON CONFLICT (provider, provider_event_id) DO NOTHING`,
      [notice.provider, notice.provider_event_id, notice.kind, notice.reference, notice.status, outcome, at],
    );
  }

  /** The recorded notice (tests and support). */
  async find(
    provider: string,
    providerEventId: string,
  ): Promise<(ProviderNoticeRow & { outcome: string; applied_at: Date | null }) | null> {
    const rows: Array<ProviderNoticeRow & { outcome: string; applied_at: Date | null }> = await this.db.manager.query(
      `SELECT provider, provider_event_id, kind, reference, status, outcome, applied_at
         FROM ${this.db.table('provider_events')} WHERE provider = $1 AND provider_event_id = $2`,
      [provider, providerEventId],
    );
    return rows[0] ?? null;
  }
}
