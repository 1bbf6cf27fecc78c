import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, loadAppConfig } from './app.config.js';

/** Every variable name loadAppConfig reads from the environment it is given. */
function variablesRead(): string[] {
  const read = new Set<string>();
  const env = new Proxy({} as Record<string, string | undefined>, {
    get(_target, name) {
      if (typeof name === 'string') read.add(name);
      return undefined;
    },
  });
  loadAppConfig(env);
  return [...read].sort();
}

describe('configuration', () => {
  it('has working defaults: no DATABASE_URL means the embedded database under ./.data', () => {
    const config = loadAppConfig({});
    expect(config).toMatchObject({
      port: 3000,
      databaseUrl: undefined,
      publicUrl: 'http://localhost:3000',
      logLevel: 'info',
      migrateOnBoot: true,
      runJobs: true,
      billingProviders: { '*': 'sandbox' },
      transferProviders: { '*': 'sandbox' },
      collectionProviders: { '*': 'sandbox' },
      billingProvidersLive: {},
      transferProvidersLive: {},
      collectionProvidersLive: {},
      settlementDelayHours: 48,
      metricsPort: undefined,
      shutdownGraceMs: 25_000,
    });
    expect(config.dataDir.endsWith('.data')).toBe(true);
    expect(loadAppConfig({ DATABASE_URL: 'postgresql://db/wallet' }).migrateOnBoot).toBe(false);
  });

  it('reads the documented values', () => {
    const config = loadAppConfig({
      PORT: '8080',
      DATABASE_URL: 'postgres://u@db:5432/wallet',
      PUBLIC_URL: 'https://pay.example.com/',
      LOG_LEVEL: 'warn',
      RUN_JOBS: 'false',
      TRANSFER_PROVIDERS: 'TH=none,*=sandbox',
      RATE_LIMIT: '0',
      METRICS_PORT: '9464',
      SHUTDOWN_GRACE_MS: '10000',
      REDIS_URL: 'redis://cache:6379/2',
      REDIS_KEY_PREFIX: 'wallet-eu:',
    });
    expect(config).toMatchObject({
      port: 8080,
      databaseUrl: 'postgres://u@db:5432/wallet',
      publicUrl: 'https://pay.example.com',
      logLevel: 'warn',
      runJobs: false,
      transferProviders: { TH: 'none', '*': 'sandbox' },
      rateLimit: 0,
      metricsPort: 9464,
      shutdownGraceMs: 10_000,
      redisUrl: 'redis://cache:6379/2',
      redisKeyPrefix: 'wallet-eu:',
    });
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT must be a whole number, got "eighty"'],
    [{ PORT: '70000' }, 'PORT must be between 0 and 65535, got 70000'],
    [{ DB_POOL_SIZE: '0' }, 'DB_POOL_SIZE must be between 1 and 200, got 0'],
    [{ DATABASE_URL: 'mysql://db/wallet' }, 'DATABASE_URL must use postgres: or postgresql:, got "mysql:"'],
    [{ DATABASE_URL: 'not a url' }, 'DATABASE_URL must be a URL, got "not a url"'],
    [{ PUBLIC_URL: 'ftp://example.com' }, 'PUBLIC_URL must use'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "loud"'],
    [{ RUN_JOBS: 'yes' }, 'RUN_JOBS must be true or false, got "yes"'],
    [{ MIGRATE_ON_BOOT: 'sometimes' }, 'MIGRATE_ON_BOOT must be true or false'],
    [{ COLLECTION_PROVIDERS: 'thailand:sandbox' }, 'COLLECTION_PROVIDERS must look like "TH=sandbox,*=sandbox"'],
    [{ SETTLEMENT_DELAY_HOURS: '-1' }, 'SETTLEMENT_DELAY_HOURS must be a whole number, got "-1"'],
    [{ METRICS_PORT: '99999' }, 'METRICS_PORT must be between 0 and 65535, got 99999'],
    [{ SHUTDOWN_GRACE_MS: '25s' }, 'SHUTDOWN_GRACE_MS must be a whole number, got "25s"'],
    [{ REDIS_URL: 'http://cache:6379' }, 'REDIS_URL must use redis: or rediss:, got "http:"'],
    [{ REDIS_KEY_PREFIX: 'a b' }, 'REDIS_KEY_PREFIX must be up to 64 of'],
    [{ SHUTDOWN_GRACE_MS: '600001' }, 'SHUTDOWN_GRACE_MS must be between 0 and 600000, got 600001'],
  ])('refuses %j with a message naming the variable', (env, message) => {
    expect(() => loadAppConfig(env)).toThrow(ConfigError);
    expect(() => loadAppConfig(env)).toThrow(message);
  });

  it('documents every variable it reads in the README configuration table', () => {
    const readme = readFileSync(join(process.cwd(), 'README.md'), 'utf8');
    const documented = new Set([...readme.matchAll(/^\| `([A-Z][A-Z0-9_]*)` \|/gm)].map((m) => m[1]));
    const read = variablesRead();
    expect(read.length).toBeGreaterThanOrEqual(15);
    expect(read.filter((name) => !documented.has(name))).toEqual([]);
  });
});
