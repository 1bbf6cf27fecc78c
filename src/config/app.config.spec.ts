import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
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
      providerCredentials: { opn: {}, stripe: {} },
      settlementDelayHours: 48,
      metricsPort: undefined,
      trustedProxies: [],
      shutdownGraceMs: 25_000,
      shutdownListenMs: 1_000,
      httpKeepAliveTimeoutMs: 65_000,
      eventRetentionDays: 30,
      auditRetentionDays: 365,
      meterEventRetentionDays: 431,
      idempotencyKeyRetentionDays: 2,
      webhookAllowPrivateTargets: true,
      webhookEndpointConcurrency: 32,
    });
    expect(config.dataDir.endsWith('.data')).toBe(true);
    expect(loadAppConfig({ DATABASE_URL: 'postgresql://db/wallet' })).toMatchObject({
      migrateOnBoot: false,
      webhookAllowPrivateTargets: false,
      databaseReadUrl: undefined,
      readReplicaMaxLagMs: 1_000,
    });
    expect(
      loadAppConfig({
        DATABASE_URL: 'postgresql://db-rw/wallet',
        DATABASE_READ_URL: 'postgresql://db-ro/wallet',
        READ_REPLICA_MAX_LAG_MS: '250',
      }),
    ).toMatchObject({ databaseReadUrl: 'postgresql://db-ro/wallet', readReplicaMaxLagMs: 250 });
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
      SHUTDOWN_LISTEN_MS: '5000',
      HTTP_KEEP_ALIVE_TIMEOUT_MS: '350000',
      EVENT_RETENTION_DAYS: '90',
      METER_EVENT_RETENTION_DAYS: '731',
      IDEMPOTENCY_KEY_RETENTION_DAYS: '7',
      REDIS_URL: 'redis://cache:6379/2',
      REDIS_KEY_PREFIX: 'wallet-eu:',
      TRUSTED_PROXIES: '10.244.0.0/16, ::1,192.0.2.7',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_ENDPOINT_CONCURRENCY: '4',
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
      shutdownListenMs: 5_000,
      httpKeepAliveTimeoutMs: 350_000,
      eventRetentionDays: 90,
      auditRetentionDays: 365,
      meterEventRetentionDays: 731,
      idempotencyKeyRetentionDays: 7,
      redisUrl: 'redis://cache:6379/2',
      redisKeyPrefix: 'wallet-eu:',
      trustedProxies: ['10.244.0.0/16', '::1', '192.0.2.7'],
      webhookAllowPrivateTargets: true,
      webhookEndpointConcurrency: 4,
    });
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT must be a whole number, got "eighty"'],
    [{ PORT: '70000' }, 'PORT must be between 0 and 65535, got 70000'],
    [{ DB_POOL_SIZE: '0' }, 'DB_POOL_SIZE must be between 1 and 200, got 0'],
    [{ DATABASE_URL: 'mysql://db/wallet' }, 'DATABASE_URL must use postgres: or postgresql:, got "mysql:"'],
    [{ DATABASE_URL: 'not a url' }, 'DATABASE_URL must be a URL, got "not a url"'],
    [{ DATABASE_READ_URL: 'postgresql://db-ro/wallet' }, 'DATABASE_READ_URL needs DATABASE_URL (the primary)'],
    [
      { DATABASE_URL: 'postgresql://db/wallet', DATABASE_READ_URL: 'mysql://db/wallet' },
      'DATABASE_READ_URL must use postgres: or postgresql:, got "mysql:"',
    ],
    [{ PUBLIC_URL: 'ftp://example.com' }, 'PUBLIC_URL must use'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "loud"'],
    [{ RUN_JOBS: 'yes' }, 'RUN_JOBS must be true or false, got "yes"'],
    [{ MIGRATE_ON_BOOT: 'sometimes' }, 'MIGRATE_ON_BOOT must be true or false'],
    [{ COLLECTION_PROVIDERS: 'thailand:sandbox' }, 'COLLECTION_PROVIDERS must look like "TH=sandbox,*=sandbox"'],
    [{ SETTLEMENT_DELAY_HOURS: '-1' }, 'SETTLEMENT_DELAY_HOURS must be a whole number, got "-1"'],
    [{ METRICS_PORT: '99999' }, 'METRICS_PORT must be between 0 and 65535, got 99999'],
    [{ SHUTDOWN_GRACE_MS: '25s' }, 'SHUTDOWN_GRACE_MS must be a whole number, got "25s"'],
    [{ HTTP_KEEP_ALIVE_TIMEOUT_MS: '500' }, 'HTTP_KEEP_ALIVE_TIMEOUT_MS must be between 1000 and 900000, got 500'],
    [{ REDIS_URL: 'http://cache:6379' }, 'REDIS_URL must use redis: or rediss:, got "http:"'],
    [{ REDIS_KEY_PREFIX: 'a b' }, 'REDIS_KEY_PREFIX must be up to 64 of'],
    [{ SHUTDOWN_GRACE_MS: '600001' }, 'SHUTDOWN_GRACE_MS must be between 0 and 600000, got 600001'],
    [{ SHUTDOWN_LISTEN_MS: '30000' }, 'SHUTDOWN_LISTEN_MS must not exceed SHUTDOWN_GRACE_MS (25000), got 30000'],
    [{ TRUSTED_PROXIES: 'ingress' }, 'TRUSTED_PROXIES must be addresses or CIDRs separated by commas'],
    [{ TRUSTED_PROXIES: '10.0.0.0/33' }, 'got "10.0.0.0/33"'],
    [{ TRUSTED_PROXIES: '10.0.0.0/8,fd00::/129' }, 'got "fd00::/129"'],
    [{ TRUSTED_PROXIES: '10.0.0.0/8/1' }, 'got "10.0.0.0/8/1"'],
    [{ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'yes' }, 'WEBHOOK_ALLOW_PRIVATE_TARGETS must be true or false, got "yes"'],
    [{ WEBHOOK_ENDPOINT_CONCURRENCY: '0' }, 'WEBHOOK_ENDPOINT_CONCURRENCY must be between 1 and 64, got 0'],
    [
      { STATEMENT_SIGNING_KEYS: 'key' },
      'STATEMENT_SIGNING_KEYS must be a JSON array of Ed25519 private JWKs with kid: not JSON',
    ],
    [
      { STATEMENT_SIGNING_KEYS: '[]' },
      'STATEMENT_SIGNING_KEYS must be a JSON array of Ed25519 private JWKs with kid: not a non-empty array',
    ],
    [
      { STATEMENT_SIGNING_KEYS: JSON.stringify([{ kty: 'EC', crv: 'P-256', kid: 'a', x: 'x', d: 'd' }]) },
      'key 0 is not kty OKP, crv Ed25519',
    ],
    [
      { STATEMENT_SIGNING_KEYS: JSON.stringify([{ kty: 'OKP', crv: 'Ed25519', kid: 'a', x: 'abc' }]) },
      'key 0 has no d',
    ],
    [
      { STATEMENT_SIGNING_KEYS: JSON.stringify([{ kty: 'OKP', crv: 'Ed25519', x: 'abc', d: 'def' }]) },
      'key 0 has no kid',
    ],
    [
      {
        STATEMENT_SIGNING_KEYS: JSON.stringify(
          [1, 2].map(() => ({ kty: 'OKP', crv: 'Ed25519', kid: 'a', x: 'abc', d: 'def' })),
        ),
      },
      'kid a is given twice',
    ],
  ])('refuses %j with a message naming the variable', (env, message) => {
    expect(() => loadAppConfig(env)).toThrow(ConfigError);
    expect(() => loadAppConfig(env)).toThrow(message);
  });

  it('reads STATEMENT_SIGNING_KEYS as private JWKs, the first active, and keeps no other fields', () => {
    const key = { kty: 'OKP', crv: 'Ed25519', kid: 'k1', x: 'eA', d: 'ZA', use: 'sig' };
    expect(loadAppConfig({}).statementSigningKeys).toBeUndefined();
    expect(
      loadAppConfig({ STATEMENT_SIGNING_KEYS: JSON.stringify([key, { ...key, kid: 'k0' }]) }).statementSigningKeys,
    ).toEqual([
      { kty: 'OKP', crv: 'Ed25519', kid: 'k1', x: 'eA', d: 'ZA' },
      { kty: 'OKP', crv: 'Ed25519', kid: 'k0', x: 'eA', d: 'ZA' },
    ]);
  });

  it('documents every variable it reads in the README configuration table', () => {
    const readme = readFileSync(join(process.cwd(), 'README.md'), 'utf8');
    const documented = new Set([...readme.matchAll(/^\| `([A-Z][A-Z0-9_]*)` \|/gm)].map((m) => m[1]));
    const read = variablesRead();
    expect(read.length).toBeGreaterThanOrEqual(15);
    expect(read.filter((name) => !documented.has(name))).toEqual([]);
  });
});

describe('provider credentials', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wallet-keys-'));
  const file = join(dir, 'opn-live');
  writeFileSync(file, 'skey_5abcdef\n');

  it('reads keys per provider and mode from the environment or a mounted file, and never prints them', () => {
    const config = loadAppConfig({
      OPN_SECRET_KEY_LIVE_FILE: file,
      OPN_PUBLIC_KEY_LIVE: 'pkey_5abcdef',
      STRIPE_SECRET_KEY_TEST: 'sk_test_abc',
      STRIPE_PUBLISHABLE_KEY_TEST: 'pk_test_abc',
      COLLECTION_PROVIDERS_LIVE: 'TH=opn',
    });
    expect(config.providerCredentials.opn.live).toMatchObject({ secretKey: 'skey_5abcdef', publicKey: 'pkey_5abcdef' });
    expect(config.providerCredentials.stripe.test?.secretKey).toBe('sk_test_abc');
    expect(config.providerCredentials.opn.test).toBeUndefined();
    const printed = JSON.stringify(config) + inspect(config, { depth: 10 });
    expect(printed).not.toContain('skey_5abcdef');
    expect(printed).not.toContain('sk_test_abc');
    // The clients' settings per mode (what the adapters are built with) print redacted too.
    expect(config.providerClients.opn.live).toMatchObject({
      secretKey: 'skey_5abcdef',
      apiBase: 'https://api.omise.co',
    });
    expect(config.providerClients.stripe.test).toMatchObject({ secretKey: 'sk_test_abc', webhookSecret: null });
    expect(config.providerClients.opn.test).toBeUndefined();
    expect(printed).toContain('[redacted provider clients]');
  });

  it.each([
    [
      { OPN_SECRET_KEY_LIVE: 'skey_test_abc', OPN_PUBLIC_KEY_LIVE: 'pkey_abc' },
      'OPN_SECRET_KEY_LIVE is not a opn live-mode secret key (value not shown)',
    ],
    [{ OPN_SECRET_KEY_TEST: 'skey_test_abc' }, 'OPN_PUBLIC_KEY_TEST is required with OPN_SECRET_KEY_TEST'],
    [
      { STRIPE_SECRET_KEY_LIVE: 'sk_live_a', STRIPE_SECRET_KEY_LIVE_FILE: file },
      'set STRIPE_SECRET_KEY_LIVE or STRIPE_SECRET_KEY_LIVE_FILE, not both',
    ],
    [
      { STRIPE_SECRET_KEY_LIVE_FILE: join(dir, 'missing') },
      'STRIPE_SECRET_KEY_LIVE_FILE names a file that cannot be read',
    ],
    [{ COLLECTION_PROVIDERS_LIVE: 'TH=opn' }, 'COLLECTION_PROVIDERS_LIVE names "opn", which needs OPN_SECRET_KEY_LIVE'],
    [
      {
        STRIPE_SECRET_KEY_LIVE: 'sk_live_a',
        STRIPE_PUBLISHABLE_KEY_LIVE: 'pk_live_a',
        STRIPE_WEBHOOK_SECRET_LIVE: 'sk_live_a',
      },
      'STRIPE_WEBHOOK_SECRET_LIVE must hold a webhook signing secret (whsec_…)',
    ],
    [{ STRIPE_PROMPTPAY_EMAIL: 'nobody' }, 'STRIPE_PROMPTPAY_EMAIL must be an email address'],
  ])('fails at boot with a message that never holds the value (%j)', (env, message) => {
    let error: Error | undefined;
    try {
      loadAppConfig(env);
    } catch (e) {
      error = e as Error;
    }
    expect(error?.message).toContain(message);
    expect(error?.message).not.toMatch(/sk_live_a|skey_test_abc/);
  });
});
