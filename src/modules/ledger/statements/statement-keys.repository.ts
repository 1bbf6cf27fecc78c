import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { StatementSigningKey } from '../../../config/app.config.js';

export interface StoredSigningKey {
  kid: string;
  private_jwk: StatementSigningKey;
  public_jwk: { kty: 'OKP'; crv: 'Ed25519'; kid: string; x: string };
  created_at: Date;
  retired_at: Date | null;
}

/** The service's generated statement keys (one table for both modes, like the applications). */
@Injectable()
export class StatementKeysRepository {
  constructor(@InjectDataSource('platform') private readonly db: DataSource) {}

  /** Every key, the active one (not retired) first, then the retired ones newest first. */
  all(): Promise<StoredSigningKey[]> {
    return this.db.query(
      `SELECT kid, private_jwk, public_jwk, created_at, retired_at FROM platform.statement_signing_keys
        ORDER BY retired_at IS NOT NULL, retired_at DESC, created_at DESC`,
    );
  }

  /** Adds the first active key unless one exists (another replica's wins: at most one is active). */
  async addFirst(key: StatementSigningKey, publicJwk: StoredSigningKey['public_jwk'], now: Date): Promise<void> {
    await this.db.query(
      `INSERT INTO platform.statement_signing_keys (kid, private_jwk, public_jwk, created_at)
       VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`,
      [key.kid, JSON.stringify(key), JSON.stringify(publicJwk), now],
    );
  }

  /** Retires the active key and adds `key` as the active one, in one transaction. */
  rotate(key: StatementSigningKey, publicJwk: StoredSigningKey['public_jwk'], now: Date): Promise<void> {
    return this.db.transaction(async (manager) => {
      await manager.query(`UPDATE platform.statement_signing_keys SET retired_at = $1 WHERE retired_at IS NULL`, [now]);
      await manager.query(
        `INSERT INTO platform.statement_signing_keys (kid, private_jwk, public_jwk, created_at) VALUES ($1, $2, $3, $4)`,
        [key.kid, JSON.stringify(key), JSON.stringify(publicJwk), now],
      );
    });
  }
}
