import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { returnedRows } from '../../../common/database/returned-rows.js';

export interface StoredSigningKey {
  kid: string;
  public_jwk: { kty: 'OKP'; crv: 'Ed25519'; kid: string; x: string };
  created_at: Date;
  retired_at: Date | null;
}

/**
 * The public halves of the statement keys the service generated (one table for both modes, like the
 * applications). The private halves live only in the memory of the process that made them.
 */
@Injectable()
export class StatementKeysRepository {
  constructor(@InjectDataSource('platform') private readonly db: DataSource) {}

  /** Every key, those still signing (not retired) first, each group newest first. */
  all(): Promise<StoredSigningKey[]> {
    return this.db.query(
      `SELECT kid, public_jwk, created_at, retired_at FROM platform.statement_signing_keys
        ORDER BY retired_at IS NOT NULL, retired_at DESC, created_at DESC`,
    );
  }

  /** Publishes a key before it signs anything. */
  async add(publicJwk: StoredSigningKey['public_jwk'], now: Date): Promise<void> {
    await this.db.query(
      `INSERT INTO platform.statement_signing_keys (kid, public_jwk, created_at) VALUES ($1, $2, $3)
       ON CONFLICT (kid) DO NOTHING`,
      [publicJwk.kid, JSON.stringify(publicJwk), now],
    );
  }

  /** Whether the key was retired (a rotation): its process then makes a new one before signing again. */
  async retired(kid: string): Promise<boolean> {
    const rows: Array<{ retired: boolean }> = await this.db.query(
      `SELECT retired_at IS NOT NULL AS retired FROM platform.statement_signing_keys WHERE kid = $1`,
      [kid],
    );
    return rows[0]?.retired ?? true;
  }

  /** Retires every key still signing; answers their kids (they stay published). */
  async retireAll(now: Date): Promise<string[]> {
    const rows = returnedRows<{ kid: string }>(
      await this.db.query(
        `UPDATE platform.statement_signing_keys SET retired_at = $1 WHERE retired_at IS NULL RETURNING kid`,
        [now],
      ),
    );
    return rows.map((r) => r.kid).sort();
  }
}
