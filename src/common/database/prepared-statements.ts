import { hash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EntityManager, QueryRunner } from 'typeorm';
import { DatabaseEndpoint } from './database-endpoint.js';

/** Statement names remembered per prefix; past this many the prefix's memory starts over. */
const MAX_NAMES = 1_000;

/** The part of a `pg` client or pool that runs a named (prepared) statement. */
interface PgQueryable {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}

/**
 * Runs a statement as a named prepared statement, so each connection plans a statement of a given
 * shape once (for the ledger's posting, planning costs about as much as running it). Inside a
 * caller's transaction it runs on that transaction's connection. The embedded database (PGlite)
 * serves every connection from one session, where prepared statement names would collide: there
 * the statement runs unnamed. The one place that reaches into TypeORM's driver for the `pg` pool.
 */
@Injectable()
export class PreparedStatements {
  private oneSession?: Promise<boolean>;
  /** Each statement's name by prefix and text, derived once rather than hashed again on every call. */
  private readonly names = new Map<string, Map<string, string>>();

  constructor(private readonly endpoint: DatabaseEndpoint) {}

  async query<T>(manager: EntityManager, prefix: string, sql: string, values: unknown[]): Promise<T[]> {
    if (await this.oneSessionServer(manager)) return manager.query(sql, values);
    const name = this.nameOf(prefix, sql);
    const runner = manager.queryRunner as (QueryRunner & { connect(): Promise<PgQueryable> }) | undefined;
    const target: PgQueryable =
      runner && !runner.isReleased
        ? await runner.connect()
        : (manager.connection.driver as unknown as { master: PgQueryable }).master;
    const result = await target.query({ name, text: sql, values });
    return result.rows as T[];
  }

  /** `<prefix>_<24 hex digits of the text's SHA-1>`: the same name for the same statement in every process. */
  private nameOf(prefix: string, sql: string): string {
    let byText = this.names.get(prefix);
    if (!byText) this.names.set(prefix, (byText = new Map()));
    let name = byText.get(sql);
    if (name === undefined) {
      if (byText.size >= MAX_NAMES) byText.clear();
      name = `${prefix}_${hash('sha1', sql, 'hex').slice(0, 24)}`;
      byText.set(sql, name);
    }
    return name;
  }

  /** Asked on the caller's connection: the embedded server holds other connections while a transaction is open. */
  private oneSessionServer(manager: EntityManager): Promise<boolean> {
    this.oneSession ??= this.endpoint.isEmbedded
      ? Promise.resolve(true)
      : manager.query('SELECT version() AS v').then((rows: Array<{ v: string }>) => rows[0].v.includes('PGlite'));
    return this.oneSession;
  }
}
