import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import type { Mode } from '../context/principal.js';

export interface StoredKey {
  request_hash: Buffer;
  status: 'processing' | 'completed';
  response_status: number | null;
  response_body: unknown;
  recovery: RecoveryPoint | null;
}

export interface KeyRef {
  applicationId: string;
  mode: Mode;
  key: string;
}

/** Where an earlier attempt's committed work got to: the object it created (docs/IDEMPOTENCY.md). */
export interface RecoveryPoint {
  object: string;
  id: string;
}

/** An attempt's hold on a key: its token fences every write; `recovery` is what an earlier attempt committed. */
export interface Lease {
  token: string;
  recovery: RecoveryPoint | null;
}

/** The key a request holds while it runs (bound in the request context by IdempotencyInterceptor). */
export interface HeldKey {
  ref: KeyRef;
  lease: Lease;
}

const WHERE_KEY = 'application_id = $1 AND mode = $2 AND key = $3';
const keyParams = (ref: KeyRef) => [ref.applicationId, ref.mode, ref.key];

/**
 * Idempotency keys (platform schema), scoped to application and mode. A key is held by one attempt
 * at a time through a lease; every write of an attempt names its token, so an attempt whose lease
 * lapsed and was taken over changes nothing any more.
 */
@Injectable()
export class IdempotencyRepository {
  constructor(@InjectDataSource('platform') private readonly db: DataSource) {}

  /**
   * Takes the key for an attempt: a new key, or one whose holder's lease lapsed with the same
   * request (that attempt died, or lost the database, before answering; its recovery point comes
   * along). Null when the key is answered, held, or was sent with another body.
   */
  async claim(ref: KeyRef, hash: Buffer, token: string, now: Date, leaseUntil: Date): Promise<Lease | null> {
    await this.db.query(
      `DELETE FROM platform.idempotency_keys WHERE ${WHERE_KEY} AND status = 'completed' AND expires_at <= $4`,
      [...keyParams(ref), now],
    );
    const inserted: unknown[] = await this.db.query(
      `INSERT INTO platform.idempotency_keys (application_id, mode, key, request_hash, status, created_at, expires_at, lease_token)
       VALUES ($1, $2, $3, $4, 'processing', $5, $6, $7)
       ON CONFLICT (application_id, mode, key) DO NOTHING
       RETURNING key`,
      [...keyParams(ref), hash, now, leaseUntil, token],
    );
    if (inserted.length > 0) return { token, recovery: null };
    const [taken]: [Array<{ recovery: RecoveryPoint | null }>, number] = await this.db.query(
      `UPDATE platform.idempotency_keys SET lease_token = $6, expires_at = $5
       WHERE ${WHERE_KEY} AND status = 'processing' AND expires_at <= $4 AND request_hash = $7
       RETURNING recovery`,
      [...keyParams(ref), now, leaseUntil, token, hash],
    );
    return taken.length > 0 ? { token, recovery: taken[0].recovery } : null;
  }

  /** Moves the lease on while its attempt runs; false when another attempt holds the key now. */
  async heartbeat(ref: KeyRef, token: string, leaseUntil: Date): Promise<boolean> {
    const [, updated]: [unknown[], number] = await this.db.query(
      `UPDATE platform.idempotency_keys SET expires_at = $5
       WHERE ${WHERE_KEY} AND lease_token = $4 AND status = 'processing'`,
      [...keyParams(ref), token, leaseUntil],
    );
    return updated > 0;
  }

  /**
   * Records in the caller's transaction (`manager`, of a mode DataSource: the table is named with
   * its schema) the object the attempt's work created, so that the commit of the work and of its
   * recovery point are one. False when the lease was taken over: the caller must roll back.
   */
  async checkpoint(ref: KeyRef, token: string, point: RecoveryPoint, manager: EntityManager): Promise<boolean> {
    const [, updated]: [unknown[], number] = await manager.query(
      `UPDATE platform.idempotency_keys SET recovery = $5
       WHERE ${WHERE_KEY} AND lease_token = $4 AND status = 'processing'`,
      [...keyParams(ref), token, JSON.stringify(point)],
    );
    return updated > 0;
  }

  /** Stores the answer and keeps it until `expiresAt`, if the attempt still holds the key. */
  async complete(ref: KeyRef, token: string, status: number, body: unknown, expiresAt: Date): Promise<void> {
    await this.db.query(
      `UPDATE platform.idempotency_keys
       SET status = 'completed', response_status = $5, response_body = $6, expires_at = $7, lease_token = NULL
       WHERE ${WHERE_KEY} AND lease_token = $4 AND status = 'processing'`,
      [...keyParams(ref), token, status, JSON.stringify(body ?? null), expiresAt],
    );
  }

  /**
   * Lets go of a key whose attempt failed: a key with no committed work is forgotten (the request
   * may be sent again as new); one with a recovery point lapses at once, for the next attempt to
   * resume.
   */
  async release(ref: KeyRef, token: string, now: Date): Promise<void> {
    await this.db.query(
      `DELETE FROM platform.idempotency_keys WHERE ${WHERE_KEY} AND lease_token = $4 AND recovery IS NULL`,
      [...keyParams(ref), token],
    );
    await this.db.query(
      `UPDATE platform.idempotency_keys SET expires_at = $5 WHERE ${WHERE_KEY} AND lease_token = $4 AND status = 'processing'`,
      [...keyParams(ref), token, now],
    );
  }

  /**
   * Whether `hash` is the request of key `ref` and the key holds its work: answered, or with a
   * recovery point (committed work a resend resumes). A consumed one-time session may still send
   * such a request (SessionStrategy): it can only get back what its own request did.
   */
  async holdsWorkOf(ref: KeyRef, hash: Buffer): Promise<boolean> {
    const stored = await this.find(ref);
    if (!stored || !Buffer.from(stored.request_hash).equals(hash)) return false;
    return stored.status === 'completed' || stored.recovery !== null;
  }

  async find(ref: KeyRef): Promise<StoredKey | null> {
    const rows: StoredKey[] = await this.db.query(
      `SELECT request_hash, status, response_status, response_body, recovery FROM platform.idempotency_keys
       WHERE ${WHERE_KEY}`,
      keyParams(ref),
    );
    return rows[0] ?? null;
  }
}
