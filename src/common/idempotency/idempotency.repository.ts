import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import type { Mode } from '../context/principal.js';
import { IDEMPOTENCY_KEYS } from '../database/partitions/partitioned-tables.js';
import { ensurePartitions, isMissingPartition, periodStart } from '../database/partitions/partitions.sql.js';

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

/**
 * An attempt's hold on a key: its token fences every write; `recovery` is what an earlier attempt
 * committed; `createdAt` is the key's day (the claim's instant), which every write names so that it
 * reads one day's partition.
 */
export interface Lease {
  token: string;
  recovery: RecoveryPoint | null;
  createdAt: Date;
}

/** The key a request holds while it runs (bound in the request context by IdempotencyGuard). */
export interface HeldKey {
  ref: KeyRef;
  lease: Lease;
}

const WHERE_KEY = 'application_id = $1 AND mode = $2 AND key = $3';
const keyParams = (ref: KeyRef) => [ref.applicationId, ref.mode, ref.key];
/** The key an attempt holds, in its day's partition: `$4` is the lease's `createdAt`. */
const WHERE_HELD = `${WHERE_KEY} AND created_at = $4`;
const heldParams = (ref: KeyRef, lease: Lease) => [...keyParams(ref), lease.createdAt];
/** The advisory lock of one key, the same as `platform.idempotency_claim`'s (migration IdempotencyKeyPartitions). */
const KEY_LOCK = `pg_advisory_xact_lock(hashtextextended(application_id::text || ' ' || mode || ' ' || key, 0))`;

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
   * along). Null when the key is answered, held, or was sent with another body. One statement, one
   * round trip: `platform.idempotency_claim` holds the key's advisory lock while it looks in every
   * day kept and writes the key into `now`'s day. A day not made yet (the maintenance job makes
   * three ahead; a clock moved on in tests) is made and the claim tried again.
   */
  async claim(ref: KeyRef, hash: Buffer, token: string, now: Date, leaseUntil: Date): Promise<Lease | null> {
    const claimed = () =>
      this.db.query(`SELECT taken, resumes FROM platform.idempotency_claim($1, $2, $3, $4, $5, $6, $7)`, [
        ...keyParams(ref),
        hash,
        now,
        leaseUntil,
        token,
      ]) as Promise<Array<{ taken: boolean; resumes: RecoveryPoint | null }>>;
    let rows: Array<{ taken: boolean; resumes: RecoveryPoint | null }>;
    try {
      rows = await claimed();
    } catch (error) {
      if (!isMissingPartition(error)) throw error;
      const day = periodStart(now, IDEMPOTENCY_KEYS.granularity);
      await ensurePartitions(this.db.manager, 'platform', IDEMPOTENCY_KEYS, day, day);
      rows = await claimed();
    }
    return rows[0].taken ? { token, recovery: rows[0].resumes, createdAt: now } : null;
  }

  /** Moves the lease on while its attempt runs; false when another attempt holds the key now. */
  async heartbeat(ref: KeyRef, lease: Lease, leaseUntil: Date): Promise<boolean> {
    const [, updated]: [unknown[], number] = await this.db.query(
      `UPDATE platform.idempotency_keys SET expires_at = $6
       WHERE ${WHERE_HELD} AND lease_token = $5 AND status = 'processing'`,
      [...heldParams(ref, lease), lease.token, leaseUntil],
    );
    return updated > 0;
  }

  /**
   * Records in the caller's transaction (`manager`, of a mode DataSource: the table is named with
   * its schema) the object the attempt's work created, so that the commit of the work and of its
   * recovery point are one. False when the lease was taken over: the caller must roll back.
   */
  async checkpoint(ref: KeyRef, lease: Lease, point: RecoveryPoint, manager: EntityManager): Promise<boolean> {
    const [, updated]: [unknown[], number] = await manager.query(
      `UPDATE platform.idempotency_keys SET recovery = $6
       WHERE ${WHERE_HELD} AND lease_token = $5 AND status = 'processing'`,
      [...heldParams(ref, lease), lease.token, JSON.stringify(point)],
    );
    return updated > 0;
  }

  /** Stores the answer and keeps it until `expiresAt`, if the attempt still holds the key. */
  async complete(ref: KeyRef, lease: Lease, status: number, body: unknown, expiresAt: Date): Promise<void> {
    await this.db.query(
      `UPDATE platform.idempotency_keys
       SET status = 'completed', response_status = $6, response_body = $7, expires_at = $8, lease_token = NULL
       WHERE ${WHERE_HELD} AND lease_token = $5 AND status = 'processing'`,
      [...heldParams(ref, lease), lease.token, status, JSON.stringify(body ?? null), expiresAt],
    );
  }

  /**
   * Lets go of a key whose attempt failed: a key with no committed work is forgotten (the request
   * may be sent again as new); one with a recovery point lapses at once, for the next attempt to
   * resume.
   */
  async release(ref: KeyRef, lease: Lease, now: Date): Promise<void> {
    await this.db.query(
      `DELETE FROM platform.idempotency_keys WHERE ${WHERE_HELD} AND lease_token = $5 AND recovery IS NULL`,
      [...heldParams(ref, lease), lease.token],
    );
    await this.db.query(
      `UPDATE platform.idempotency_keys SET expires_at = $6 WHERE ${WHERE_HELD} AND lease_token = $5 AND status = 'processing'`,
      [...heldParams(ref, lease), lease.token, now],
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

  /**
   * The key as stored, in whichever day kept holds it: a key an abandoned attempt left with a
   * recovery point may be days old (no `created_at` bound: one would hide a day the maintenance job
   * has not dropped yet, and every day kept is one index probe).
   */
  async find(ref: KeyRef): Promise<StoredKey | null> {
    const rows: StoredKey[] = await this.db.query(
      `SELECT request_hash, status, response_status, response_body, recovery FROM platform.idempotency_keys
       WHERE ${WHERE_KEY}`,
      keyParams(ref),
    );
    return rows[0] ?? null;
  }

  /**
   * The retention's hook for one day about to be dropped (docs/IDEMPOTENCY.md "Retention"), in the
   * drop's transaction: false (keep the day for a later run) while a lease in it is live; otherwise
   * every key in it that can still answer a resend (an answer not expired, a lapsed key holding a
   * recovery point) is carried forward into `now`'s day, under its key's advisory lock so no claim
   * of it runs meanwhile. Everything else in the day (expired answers, lapsed keys with no work) goes
   * with it, as a released key would. Answers the keys carried forward through `moved`.
   */
  async carryForward(
    tx: EntityManager,
    day: { start: Date; end: Date },
    now: Date,
    moved: { keys: number } = { keys: 0 },
  ): Promise<boolean> {
    const inDay = `created_at >= $1 AND created_at < $2`;
    const answers = `((status = 'completed' AND expires_at > $3) OR (status = 'processing' AND recovery IS NOT NULL))`;
    const [{ live }] = (await tx.query(
      `SELECT count(*)::int AS live FROM platform.idempotency_keys
        WHERE ${inDay} AND status = 'processing' AND expires_at > $3`,
      [day.start, day.end, now],
    )) as Array<{ live: number }>;
    if (live > 0) return false;
    await tx.query(`SELECT ${KEY_LOCK} FROM platform.idempotency_keys WHERE ${inDay} AND ${answers}`, [
      day.start,
      day.end,
      now,
    ]);
    const [, carried]: [unknown[], number] = await tx.query(
      `UPDATE platform.idempotency_keys SET created_at = $3 WHERE ${inDay} AND ${answers}`,
      [day.start, day.end, now],
    );
    moved.keys += carried;
    return true;
  }
}
