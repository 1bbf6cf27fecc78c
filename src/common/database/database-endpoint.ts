import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { migrationDataSource } from '../../../ormconfig.js';
import type { AppConfig } from '../../config/app.config.js';
import { EmbeddedPostgres } from './embedded-postgres.js';

/**
 * Where the database is: DATABASE_URL, or the embedded PGlite this process starts (or the one
 * another process of ours already serves on the same data directory).
 */
@Injectable()
export class DatabaseEndpoint implements OnApplicationShutdown {
  private static readonly logger = new Logger('Database');

  private constructor(
    readonly url: string,
    readonly embedded: EmbeddedPostgres | undefined,
  ) {}

  get isEmbedded(): boolean {
    return this.embedded !== undefined || this.sharedEmbedded;
  }

  private sharedEmbedded = false;

  static async open(config: AppConfig): Promise<DatabaseEndpoint> {
    let endpoint: DatabaseEndpoint;
    if (config.databaseUrl) {
      endpoint = new DatabaseEndpoint(config.databaseUrl, undefined);
    } else {
      const running = EmbeddedPostgres.runningOn(config.dataDir);
      if (running) {
        endpoint = new DatabaseEndpoint(running, undefined);
        endpoint.sharedEmbedded = true;
      } else {
        const embedded = await EmbeddedPostgres.start(config.dataDir);
        endpoint = new DatabaseEndpoint(embedded.url, embedded);
        DatabaseEndpoint.logger.log(`embedded PostgreSQL (PGlite) on ${config.dataDir}`);
      }
    }
    if (config.migrateOnBoot || endpoint.isEmbedded) await endpoint.migrate();
    return endpoint;
  }

  async migrate(): Promise<string[]> {
    const source = migrationDataSource(this.url);
    await source.initialize();
    try {
      const applied = await source.runMigrations({ transaction: 'each' });
      return applied.map((m) => m.name);
    } finally {
      await source.destroy();
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.embedded?.stop();
  }
}
