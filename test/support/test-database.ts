import pg from 'pg';
import { migrationDataSource } from '../../ormconfig.js';

/** Tests refuse any database whose name does not say it is for tests. */
export function assertTestDatabase(url: string): URL {
  const parsed = new URL(url);
  const name = decodeURIComponent(parsed.pathname.replace(/^\//, ''));
  if (!/test/i.test(name)) {
    throw new Error(`refusing to run tests against database "${name}": its name must contain "test"`);
  }
  return parsed;
}

export async function migrate(url: string): Promise<void> {
  const source = migrationDataSource(url);
  await source.initialize();
  try {
    await source.runMigrations({ transaction: 'each' });
  } finally {
    await source.destroy();
  }
}

async function admin<T>(url: URL, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const adminUrl = new URL(url);
  adminUrl.pathname = '/postgres';
  const client = new pg.Client({ connectionString: adminUrl.toString() });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A fresh database per test run, named after the configured one, so parallel runs never meet. */
export async function createRunDatabase(url: string): Promise<string> {
  const base = assertTestDatabase(url);
  const name = `${decodeURIComponent(base.pathname.slice(1))}_${process.pid}_${Date.now().toString(36)}`.toLowerCase();
  await admin(base, (c) => c.query(`CREATE DATABASE "${name}"`));
  const runUrl = new URL(base);
  runUrl.pathname = `/${name}`;
  return runUrl.toString();
}

export async function dropRunDatabase(url: string): Promise<void> {
  const parsed = new URL(url);
  const name = decodeURIComponent(parsed.pathname.slice(1));
  await admin(parsed, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}
