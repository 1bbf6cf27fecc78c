import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';

/** Reads TypeORM's migrations table (written by `migrations:run`), without failing when it is not there yet. */
@Injectable()
export class MigrationsRepository {
  constructor(@InjectDataSource('platform') private readonly db: DataSource) {}

  /** The names of the applied migrations; none on a database never migrated. */
  async appliedNames(): Promise<string[]> {
    // The migration DataSource names no schema, so its table sits in the session's current schema.
    const [{ present }] = (await this.db.query(`SELECT to_regclass('migrations') IS NOT NULL AS present`)) as Array<{
      present: boolean;
    }>;
    if (!present) return [];
    const rows = (await this.db.query('SELECT name FROM migrations')) as Array<{ name: string }>;
    return rows.map((r) => r.name);
  }
}
