import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { Mode } from '../context/principal.js';

export interface StoredKey {
  request_hash: Buffer;
  status: 'processing' | 'completed';
  response_status: number | null;
  response_body: unknown;
}

export interface KeyRef {
  applicationId: string;
  mode: Mode;
  key: string;
}

/** Idempotency keys (platform schema), scoped to application and mode. */
@Injectable()
export class IdempotencyRepository {
  constructor(@InjectDataSource('platform') private readonly db: DataSource) {}

  /** Takes the key for a new request (after dropping an expired one); false when it is taken. */
  async claim(ref: KeyRef, hash: Buffer, now: Date, expiresAt: Date): Promise<boolean> {
    await this.db.query(
      `DELETE FROM platform.idempotency_keys WHERE application_id = $1 AND mode = $2 AND key = $3 AND expires_at <= $4`,
      [ref.applicationId, ref.mode, ref.key, now],
    );
    const inserted: unknown[] = await this.db.query(
      `INSERT INTO platform.idempotency_keys (application_id, mode, key, request_hash, status, created_at, expires_at)
       VALUES ($1, $2, $3, $4, 'processing', $5, $6)
       ON CONFLICT (application_id, mode, key) DO NOTHING
       RETURNING key`,
      [ref.applicationId, ref.mode, ref.key, hash, now, expiresAt],
    );
    return inserted.length > 0;
  }

  async complete(ref: KeyRef, status: number, body: unknown): Promise<void> {
    await this.db.query(
      `UPDATE platform.idempotency_keys SET status = 'completed', response_status = $4, response_body = $5
       WHERE application_id = $1 AND mode = $2 AND key = $3`,
      [ref.applicationId, ref.mode, ref.key, status, JSON.stringify(body ?? null)],
    );
  }

  async release(ref: KeyRef): Promise<void> {
    await this.db.query(`DELETE FROM platform.idempotency_keys WHERE application_id = $1 AND mode = $2 AND key = $3`, [
      ref.applicationId,
      ref.mode,
      ref.key,
    ]);
  }

  async find(ref: KeyRef): Promise<StoredKey | null> {
    const rows: StoredKey[] = await this.db.query(
      `SELECT request_hash, status, response_status, response_body FROM platform.idempotency_keys
       WHERE application_id = $1 AND mode = $2 AND key = $3`,
      [ref.applicationId, ref.mode, ref.key],
    );
    return rows[0] ?? null;
  }
}
