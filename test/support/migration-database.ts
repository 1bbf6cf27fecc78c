import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { EmbeddedPostgres } from '../../src/common/database/embedded-postgres.js';
import { MIGRATIONS } from '../../migrations/index.js';
import { createRunDatabase, dropRunDatabase } from './test-database.js';

type Migration = (typeof MIGRATIONS)[number];

const source = (url: string, migrations: typeof MIGRATIONS) =>
  new DataSource({
    type: 'postgres',
    url,
    migrations,
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each',
    logging: ['error'],
  });

/**
 * A database of its own for a test of one migration on an existing database (an upgrade in place),
 * on this run's engine: a database made for the file on PostgreSQL, an in-memory embedded one
 * otherwise. Registers the file's beforeAll and afterAll; answers the database's URL once it is up.
 *
 *   const db = migrationDatabase();
 *   it('...', async () => {
 *     const counted = await migratedBefore(db.url(), MyMigration, async (ds) => { ...fill...; return count(ds); });
 *     await migratedThrough(db.url(), MyMigration, async (ds) => expect(await count(ds)).toEqual(counted));
 *   });
 */
export function migrationDatabase(): { url: () => string } {
  let url: string | undefined;
  let stop: () => Promise<void> = () => Promise.resolve();
  beforeAll(async () => {
    if (process.env.WALLET_TEST_DATABASE === 'postgresql') {
      const made = await createRunDatabase(process.env.DATABASE_URL!);
      url = made;
      stop = () => dropRunDatabase(made);
    } else {
      const embedded = await EmbeddedPostgres.start('memory://');
      url = embedded.url;
      stop = () => embedded.stop();
    }
  });
  afterAll(() => stop());
  return {
    url: () => {
      if (!url) throw new Error('migrationDatabase(): the database is made in beforeAll');
      return url;
    },
  };
}

/** Migrates `url` up to the one before `migration`, runs `work` on it (the rows as they were) and closes it. */
export async function migratedBefore<T>(
  url: string,
  migration: Migration,
  work: (ds: DataSource) => Promise<T>,
): Promise<T> {
  const index = MIGRATIONS.indexOf(migration);
  if (index <= 0) throw new Error(`${migration.name} is not a later migration of MIGRATIONS`);
  return withMigrations(url, MIGRATIONS.slice(0, index), work);
}

/** Runs every migration left on `url` (failing unless `migration` is one of them), then `work` on it, and closes it. */
export async function migratedThrough<T>(
  url: string,
  migration: Migration,
  work: (ds: DataSource) => Promise<T>,
): Promise<T> {
  return withMigrations(url, MIGRATIONS, work, migration);
}

/** Undoes `migration` on `ds`, and first every migration after it (most recent first). */
export async function undoneThrough(ds: DataSource, migration: Migration): Promise<void> {
  const later = MIGRATIONS.length - MIGRATIONS.indexOf(migration) - 1;
  for (let i = 0; i <= later; i++) await ds.undoLastMigration({ transaction: 'each' });
}

async function withMigrations<T>(
  url: string,
  migrations: typeof MIGRATIONS,
  work: (ds: DataSource) => Promise<T>,
  mustRun?: Migration,
): Promise<T> {
  const ds = source(url, migrations);
  await ds.initialize();
  try {
    const ran = (await ds.runMigrations({ transaction: 'each' })).map((m) => m.name);
    if (mustRun && !ran.includes(mustRun.name)) throw new Error(`${mustRun.name} did not run (ran: ${ran.join(', ')})`);
    return await work(ds);
  } finally {
    await ds.destroy();
  }
}
