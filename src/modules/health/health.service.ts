import { Injectable } from '@nestjs/common';
import { MigrationStatus } from '../../common/database/migration-status.js';
import { HealthRepository } from './health.repository.js';

/** What readiness asks of the database: that it answers, and which migrations of this build it lacks. */
@Injectable()
export class HealthService {
  constructor(
    private readonly health: HealthRepository,
    private readonly migrations: MigrationStatus,
  ) {}

  async pendingMigrations(): Promise<string[]> {
    await this.health.ping();
    return this.migrations.pending();
  }
}
