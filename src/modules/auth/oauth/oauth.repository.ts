import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { OAuthClient } from '../entities/oauth-client.entity.js';
import { OAuthCode } from '../entities/oauth-code.entity.js';
import { OAuthToken } from '../entities/oauth-token.entity.js';

/** A token with the revocation state of its family. */
export type TokenWithFamily = OAuthToken & { family_revoked_at: Date | null };

/** Clients, codes and tokens in the platform schema. Every state change is one conditional statement. */
@Injectable()
export class OAuthRepository {
  constructor(@InjectDataSource('platform') private readonly db: DataSource) {}

  findClient(clientId: string): Promise<OAuthClient | null> {
    return this.db.getRepository(OAuthClient).findOneBy({ client_id: clientId });
  }

  async insertClient(client: Omit<OAuthClient, 'created_at'>): Promise<OAuthClient> {
    const repo = this.db.getRepository(OAuthClient);
    return repo.save(repo.create(client));
  }

  async insertCode(code: Omit<OAuthCode, 'created_at'>): Promise<void> {
    await this.db.getRepository(OAuthCode).insert(code);
  }

  findCode(codeHash: Buffer): Promise<OAuthCode | null> {
    return this.db.getRepository(OAuthCode).findOneBy({ code_hash: codeHash });
  }

  /** The one exchange a code allows: true for the caller that marked it used. */
  async useCode(id: string, at: Date): Promise<boolean> {
    const result = await this.db
      .createQueryBuilder()
      .update(OAuthCode)
      .set({ used_at: at })
      .where('id = :id AND used_at IS NULL', { id })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  /** Inserts the pair, creating its family when it is the first (a revoked family stays revoked). */
  async insertToken(token: Omit<OAuthToken, 'created_at'>): Promise<void> {
    await this.db.transaction(async (manager) => {
      await manager.query(`INSERT INTO platform.oauth_token_families (id) VALUES ($1) ON CONFLICT (id) DO NOTHING`, [
        token.family_id,
      ]);
      await manager.getRepository(OAuthToken).insert(token);
    });
  }

  findByAccessHash(hash: Buffer): Promise<TokenWithFamily | null> {
    return this.withFamily('access_hash', hash);
  }

  findByRefreshHash(hash: Buffer): Promise<TokenWithFamily | null> {
    return this.withFamily('refresh_hash', hash);
  }

  /** Marks a refresh token as exchanged; false when it already was (a reuse). */
  async rotate(id: string, at: Date): Promise<boolean> {
    const result = await this.db
      .createQueryBuilder()
      .update(OAuthToken)
      .set({ rotated_at: at })
      .where('id = :id AND rotated_at IS NULL', { id })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  /**
   * Revokes the family, creating its row if the first exchange has not written it yet, so tokens
   * that exchange is about to insert are born revoked.
   */
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  async revokeFamily(familyId: string, at: Date, manager: EntityManager = this.db.manager): Promise<void> {
    await manager.query(
      `INSERT INTO platform.oauth_token_families (id, revoked_at) VALUES ($1, $2)
       ON CONFLICT (id) DO UPDATE SET revoked_at = COALESCE(platform.oauth_token_families.revoked_at, EXCLUDED.revoked_at)`,
      [familyId, at],
    );
  }

  private async withFamily(column: 'access_hash' | 'refresh_hash', hash: Buffer): Promise<TokenWithFamily | null> {
    const rows: TokenWithFamily[] = await this.db.query(
      `SELECT t.*, f.revoked_at AS family_revoked_at
         FROM platform.oauth_tokens t JOIN platform.oauth_token_families f ON f.id = t.family_id
        WHERE t.${column} = $1`,
      [hash],
    );
    return rows[0] ?? null;
  }
}
