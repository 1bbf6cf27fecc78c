import { Injectable } from '@nestjs/common';
import { MIGRATIONS } from '../../../migrations/index.js';
import { MigrationsRepository } from './migrations.repository.js';

/** TypeORM records a migration under its `name` property, or its class name without one. */
export const KNOWN_MIGRATIONS: readonly string[] = MIGRATIONS.map((M) => (new M() as { name?: string }).name ?? M.name);

/**
 * Whether every migration this build knows (migrations/index.ts) is applied to the database.
 * Readiness and the background jobs ask it; once it has seen them all applied it answers from
 * memory (migrations are never taken back). Migrations the database has and this build does not
 * know (a newer version ran them, then this one was rolled back to) do not count: they are additive.
 */
@Injectable()
export class MigrationStatus {
  private allApplied = false;

  constructor(private readonly migrations: MigrationsRepository) {}

  /** The known migrations not applied yet (empty when all are); throws when the database cannot be asked. */
  async pending(): Promise<string[]> {
    if (this.allApplied) return [];
    const applied = new Set(await this.migrations.appliedNames());
    const pending = KNOWN_MIGRATIONS.filter((name) => !applied.has(name));
    this.allApplied = pending.length === 0;
    return pending;
  }
}
