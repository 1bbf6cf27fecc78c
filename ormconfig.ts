import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { MIGRATIONS } from './migrations/index.js';

/** The DataSource migrations run on: no default schema, so every statement names its schema. */
export function migrationDataSource(url: string): DataSource {
  return new DataSource({
    type: 'postgres',
    url,
    migrations: MIGRATIONS,
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each',
    logging: ['error'],
  });
}

/** For the TypeORM CLI (`typeorm -d dist/ormconfig.js …`); the service and `npm run migration:run` use migrationDataSource. */
export default migrationDataSource(process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres');
