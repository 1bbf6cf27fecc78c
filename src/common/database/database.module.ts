import { Global, Module, type DynamicModule } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { TypeOrmModule, type TypeOrmModuleOptions } from '@nestjs/typeorm';
import pg from 'pg';
import type { AllConfig } from '../../config/app.config.js';
import { DatabaseEndpoint } from './database-endpoint.js';
import { MigrationStatus } from './migration-status.js';
import { CacheInvalidation } from '../cache/invalidation.js';
import { NotificationsRepository } from './notifications.repository.js';
import { MigrationsRepository } from './migrations.repository.js';
import { LiveSubscriber, TestSubscriber } from './mode-record.js';
import { ModeDb } from './mode-db.js';
import { PreparedStatements } from './prepared-statements.js';
import { ReadReplica } from './read-replica.js';

export const PLATFORM_CONNECTION = 'platform';
export const MODE_CONNECTIONS = { test: 'wallet_test', live: 'wallet_live' } as const;

// Amounts and counts are int8: read them as numbers (amounts stay far below 2^53).
pg.defaults.parseInt8 = true;

@Global()
@Module({
  providers: [
    {
      provide: DatabaseEndpoint,
      inject: [ConfigService],
      useFactory: (config: ConfigService<AllConfig, true>) => DatabaseEndpoint.open(config.get('app', { infer: true })),
    },
  ],
  exports: [DatabaseEndpoint],
})
class DatabaseEndpointModule {}

function connection(name: string, schema: string, subscribers: Function[]) {
  return TypeOrmModule.forRootAsync({
    name,
    imports: [DatabaseEndpointModule],
    inject: [DatabaseEndpoint, ConfigService],
    useFactory: (endpoint: DatabaseEndpoint, config: ConfigService<AllConfig, true>): TypeOrmModuleOptions => ({
      type: 'postgres',
      url: endpoint.url,
      schema,
      autoLoadEntities: true,
      synchronize: false,
      migrationsRun: false,
      subscribers,
      // Failed queries are logged by the error filter without their parameters (which may hold account numbers).
      logging: false,
      extra: endpoint.isEmbedded
        ? { max: 4 }
        : {
            max: config.get('app.dbPoolSize', { infer: true }),
            // An API answers small queries: starting parallel workers costs more than it saves (tens
            // of ms on a busy host when the planner overestimates a search's matches), so the
            // service's sessions plan without them. Operators' own sessions keep the server default.
            options: '-c max_parallel_workers_per_gather=0',
          },
    }),
  });
}

/**
 * Three fixed DataSources: `platform`, and one per mode schema. Repositories of per-mode data ask
 * ModeDb for the manager of the request's mode; none of them can name a schema themselves.
 */
@Global()
@Module({})
export class DatabaseModule {
  static forRoot(): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        DatabaseEndpointModule,
        connection(PLATFORM_CONNECTION, 'platform', []),
        connection(MODE_CONNECTIONS.test, 'wallet_test', [TestSubscriber]),
        connection(MODE_CONNECTIONS.live, 'wallet_live', [LiveSubscriber]),
      ],
      providers: [
        ModeDb,
        ReadReplica,
        PreparedStatements,
        MigrationsRepository,
        MigrationStatus,
        NotificationsRepository,
        CacheInvalidation,
      ],
      exports: [ModeDb, ReadReplica, PreparedStatements, MigrationStatus, DatabaseEndpointModule, CacheInvalidation],
    };
  }

  /** A feature's per-mode entities, registered on both mode DataSources. */
  static forModeEntities(entities: Function[]): DynamicModule[] {
    return [
      TypeOrmModule.forFeature(entities, MODE_CONNECTIONS.test),
      TypeOrmModule.forFeature(entities, MODE_CONNECTIONS.live),
    ];
  }

  static forPlatformEntities(entities: Function[]): DynamicModule {
    return TypeOrmModule.forFeature(entities, PLATFORM_CONNECTION);
  }
}
