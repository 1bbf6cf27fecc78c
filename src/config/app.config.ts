import { isIP } from 'node:net';
import { isAbsolute, resolve } from 'node:path';
import { loadFileStorageConfig, type FileStorageConfig } from './file-storage.config.js';
import { loadProviderClients, type ProviderClients } from './provider-clients.js';
import { loadProviderCredentials, type ProviderCredentials } from './provider-credentials.js';
import { secretKeyVariable } from '../providers/ports/provider-plug.port.js';
import { PROVIDER_PLUGS } from '../providers/provider-plugs.js';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface AppConfig {
  port: number;
  host: string;
  /** Set: use that PostgreSQL. Unset: start the embedded PGlite under dataDir. */
  databaseUrl: string | undefined;
  /** Base of every link the service hands out (checkout urls, bank account intent links). */
  publicUrl: string;
  logLevel: LogLevel;
  /** Where the embedded database keeps its files; `memory://` keeps nothing. */
  dataDir: string;
  dbPoolSize: number;
  /**
   * Set: list endpoints marked `@ReadReplicaTolerant()` read from this PostgreSQL (a streaming
   * replica of DATABASE_URL) while its replay lag stays within readReplicaMaxLagMs.
   */
  databaseReadUrl: string | undefined;
  /** The replica lag past which tolerant reads go to the primary instead (READ_REPLICA_MAX_LAG_MS). */
  readReplicaMaxLagMs: number;
  bodyLimitBytes: number;
  /** Apply pending migrations on boot (always on for the embedded database). */
  migrateOnBoot: boolean;
  /** Run background jobs (hold release, outbox delivery, checkout expiry) in this process. Off in the CLI and in tests. */
  runJobs: boolean;
  /** Requests per window per credential on wallet endpoints; 0 turns rate limiting off. */
  rateLimit: number;
  rateLimitWindowMs: number;
  /**
   * Set: rate-limit counters live in this Redis, shared by every replica. Unset: each process
   * counts for itself (N replicas give a client N times RATE_LIMIT).
   */
  redisUrl: string | undefined;
  /** Prefix of every Redis key this service writes (several deployments or test runs may share one Redis). */
  redisKeyPrefix: string;
  /** How long a rate-limit command may wait for Redis before the process counts alone (fails open). */
  redisTimeoutMs: number;
  /** How long a verified secret key is remembered when no revocation message arrives (API_KEY_CACHE_MS). */
  apiKeyCacheMs: number;
  /**
   * The proxies in front whose `X-Forwarded-For` is believed (TRUSTED_PROXIES: addresses or CIDRs).
   * The client address is the nearest one in that header not in this list; empty (the default):
   * the connection's peer is the client, whatever the header says.
   */
  trustedProxies: string[];
  /** Failed authentications a client address (or a key prefix) may have per window; 0 turns the check off. */
  authFailureLimit: number;
  /** When set, the log goes to this file (appended) instead of standard output. */
  logFile?: string;
  /** Billing provider per application country (`*` for any other): e.g. `TH=sandbox,*=sandbox`. */
  billingProviders: Record<string, string>;
  /** Transfer provider per application country (`*` for any other); `none` disables it: e.g. `TH=sandbox,*=none`. */
  transferProviders: Record<string, string>;
  /** Collection provider per application country (`*` for any other): e.g. `TH=sandbox,*=sandbox`. */
  collectionProviders: Record<string, string>;
  /** Live-mode maps (`<VARIABLE>_LIVE`, e.g. `COLLECTION_PROVIDERS_LIVE=TH=opn,SG=stripe`): empty by default, never a sandbox. */
  billingProvidersLive: Record<string, string>;
  transferProvidersLive: Record<string, string>;
  collectionProvidersLive: Record<string, string>;
  /** Provider keys per provider and mode (env or mounted secret file), validated at boot; never logged. */
  providerCredentials: ProviderCredentials;
  /** Opn's and Stripe's client settings per mode (keys, base URL, webhook secret); never logged. */
  providerClients: ProviderClients;
  /** A pending provider charge, refund or payout older than this is read back from its provider (a lost webhook). */
  providerReconcileAfterMinutes: number;
  /** Meter events the outbox forwarder claims and sends to the billing provider per round trip. */
  meterForwardBatch: number;
  /** Claims of the outbox forwarder in flight at once, per mode and replica. */
  meterForwardConcurrency: number;
  /** How long a succeeded charge's funds stay on hold before they become available. */
  settlementDelayHours: number;
  /**
   * LEDGER_HOT_ACCOUNTS: ledger accounts (e.g. `fees,provider_clearing`) whose balances are hot: a
   * posting in a caller's transaction queues its legs on them for the applier instead of taking their
   * row lock (docs/LEDGER.md, "Hot balances"). Empty by default.
   */
  ledgerHotAccounts: string[];
  /** How long a closed period's invoice stays draft so late meter events land on it (BILLING_GRACE_PERIOD). */
  billingGracePeriodMs: number;
  /** BILLING_RETRY_SCHEDULE: days after a subscription invoice's first failed attempt when it is retried. */
  billingRetryScheduleDays: number[];
  /** Set: `/metrics` is served only on this port (a listener of its own), not on `port`. Unset: on `port`. */
  metricsPort: number | undefined;
  /**
   * Test-mode webhook endpoints may target private, loopback, CGNAT, unique-local and unspecified
   * addresses (a laptop or compose network). Off, test mode is held to live's public-only rule: a
   * deployed service's test keys must not reach its internal network. On by default only for the
   * embedded zero-setup start (no DATABASE_URL).
   */
  webhookAllowPrivateTargets: boolean;
  /** Attempts one replica has in flight to one webhook endpoint at once: a slow endpoint uses only these. */
  webhookEndpointConcurrency: number;
  /** Events (and their deliveries and attempts) are purged this many days after they happened; at least 30. */
  eventRetentionDays: number;
  /** Audit rows are removed (behind a signed checkpoint) this many days after they were written; at least 365. */
  auditRetentionDays: number;
  /**
   * Meter events are kept this many days after they were received, then dropped a whole month at a
   * time; at least 431 (a yearly period of 366 days, the longest grace of 30 and 35 days of back-dating).
   */
  meterEventRetentionDays: number;
  /**
   * Idempotency keys are kept this many days after the day they were sent, then dropped a whole day
   * at a time; at least 2 (an answer is replayed 24 hours after the request ended; keys that can
   * still answer are carried forward, never dropped: docs/IDEMPOTENCY.md "Retention").
   */
  idempotencyKeyRetentionDays: number;
  /** On SIGTERM/SIGINT, how long in-flight requests may take to finish before their connections are cut. */
  shutdownGraceMs: number;
  /**
   * On SIGTERM/SIGINT, how long the listener still accepts (answering `/readyz` 503 and every
   * request with `Connection: close`) before it closes; after that, a connection idle this long is
   * closed. At most `shutdownGraceMs`.
   */
  shutdownListenMs: number;
  /** How long an idle keep-alive connection stays open: above any proxy's or client's idle timeout in front. */
  httpKeepAliveTimeoutMs: number;
  /** FILE_STORAGE: where uploaded files' bytes live (`database`, the default, or `s3` with the S3_* settings). */
  fileStorage: FileStorageConfig;
  /**
   * STATEMENT_SIGNING_KEYS: Ed25519 private JWKs (JSON array) that sign balance statements, the
   * first active, the rest retired but still published. Unset: a key generated on first use is kept
   * in the database (docs/LEDGER.md, "Statements").
   */
  statementSigningKeys: StatementSigningKey[] | undefined;
}

export interface StatementSigningKey {
  kty: 'OKP';
  crv: 'Ed25519';
  kid: string;
  x: string;
  d: string;
}

export interface AllConfig {
  app: AppConfig;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(`${name} must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${value}`);
  return value;
}

const DURATION_UNITS_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** A duration as `90s`, `30m`, `1h` or `2d` (a bare number is seconds), in milliseconds. */
function duration(env: Env, name: string, fallbackMs: number, maxMs: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallbackMs;
  const match = /^(\d+)([smhd]?)$/.exec(raw);
  if (!match) throw new ConfigError(`${name} must be a duration such as 90s, 30m, 1h or 2d, got "${raw}"`);
  const ms = Number(match[1]) * DURATION_UNITS_MS[match[2] || 's'];
  if (ms > maxMs) throw new ConfigError(`${name} must be at most ${maxMs / 3_600_000} hours, got "${raw}"`);
  return ms;
}

/**
 * BILLING_RETRY_SCHEDULE: the days after an invoice's first failed attempt when it is tried again,
 * strictly ascending whole days (1 to 60), at most 8 retries, e.g. "1,3,5"; "" or "none": no retries.
 */
function retrySchedule(env: Env): number[] {
  const raw = env.BILLING_RETRY_SCHEDULE;
  if (raw === undefined) return [1, 3, 5];
  if (raw.trim() === '' || raw.trim() === 'none') return [];
  const days = raw.split(',').map((part) => part.trim());
  const bad = () =>
    new ConfigError(
      `BILLING_RETRY_SCHEDULE must be up to 8 ascending whole days from 1 to 60 like "1,3,5", got "${raw}"`,
    );
  if (days.length > 8 || days.some((d) => !/^\d+$/.test(d))) throw bad();
  const numbers = days.map(Number);
  if (numbers.some((d, n) => d < 1 || d > 60 || (n > 0 && d <= numbers[n - 1]))) throw bad();
  return numbers;
}

/** A comma-separated list of ledger account names (lower-case, as balances name them); empty when unset. */
function accountList(env: Env, name: string): string[] {
  const names = (env[name] ?? '')
    .split(',')
    .map((n) => n.trim())
    .filter((n) => n !== '');
  for (const n of names) {
    if (!/^[a-z][a-z0-9_]{0,63}$/.test(n)) throw new ConfigError(`${name}: "${n}" is not a ledger account name.`);
  }
  return [...new Set(names)];
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

function url(name: string, raw: string, protocols: string[]): string {
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be a URL, got "${raw}"`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(`${name} must use ${protocols.join(' or ')}, got "${parsed.protocol}"`);
  }
  return raw;
}

/** `TH=sandbox,SG=acme,*=sandbox` -> { TH: 'sandbox', SG: 'acme', '*': 'sandbox' } */
function providerMap(env: Env, name: string, fallback: string): Record<string, string> {
  const raw = env[name] || fallback;
  const map: Record<string, string> = {};
  if (raw.trim() === '') return map;
  for (const part of raw.split(',')) {
    const match = /^\s*([A-Z]{2}|\*)\s*=\s*([a-z][a-z0-9_-]*)\s*$/.exec(part);
    if (!match) throw new ConfigError(`${name} must look like "TH=sandbox,*=sandbox", got "${raw}"`);
    map[match[1]] = match[2];
  }
  return map;
}

function liveMap(env: Env, name: string, credentials: ProviderCredentials): Record<string, string> {
  const map = providerMap(env, name, '');
  requireLiveKeys(name, map, credentials);
  return map;
}

function redisKeyPrefix(env: Env): string {
  const raw = env.REDIS_KEY_PREFIX ?? 'wallet:';
  if (!/^[A-Za-z0-9:_.-]{0,64}$/.test(raw)) {
    throw new ConfigError(`REDIS_KEY_PREFIX must be up to 64 of A-Z, a-z, 0-9, ":", "_", ".", "-", got "${raw}"`);
  }
  return raw;
}

/** `10.0.0.0/8, fd00::/8, 192.0.2.7` -> each entry checked (an address, and a prefix length that fits it). */
function trustedProxies(env: Env): string[] {
  const raw = env.TRUSTED_PROXIES ?? '';
  if (raw.trim() === '') return [];
  return raw.split(',').map((part) => {
    const entry = part.trim();
    const [address, prefix, extra] = entry.split('/');
    const family = isIP(address);
    const bits = family === 6 ? 128 : 32;
    const validPrefix = prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= bits);
    if (family === 0 || !validPrefix || extra !== undefined) {
      throw new ConfigError(
        `TRUSTED_PROXIES must be addresses or CIDRs separated by commas (e.g. "10.244.0.0/16,::1"), got "${entry}"`,
      );
    }
    return entry;
  });
}

/** A live map naming a provider whose live keys are missing fails the boot. */
function requireLiveKeys(variable: string, map: Record<string, string>, credentials: ProviderCredentials): void {
  for (const name of new Set(Object.values(map))) {
    const plug = PROVIDER_PLUGS.find((p) => p.name === name);
    if (plug && !credentials[name].live) {
      const secret = secretKeyVariable(plug.keys, 'live');
      throw new ConfigError(
        `${variable} names "${name}", which needs ${secret} (or ${secret}_FILE) and its public key`,
      );
    }
  }
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** STATEMENT_SIGNING_KEYS: a non-empty JSON array of Ed25519 private JWKs, each with its own kid. */
function statementSigningKeys(env: Env): StatementSigningKey[] | undefined {
  const raw = env.STATEMENT_SIGNING_KEYS;
  if (!raw) return undefined;
  const fail = (why: string) =>
    new ConfigError(`STATEMENT_SIGNING_KEYS must be a JSON array of Ed25519 private JWKs with kid: ${why}`);
  let keys: unknown;
  try {
    keys = JSON.parse(raw);
  } catch {
    throw fail('not JSON');
  }
  if (!Array.isArray(keys) || keys.length === 0) throw fail('not a non-empty array');
  const kids = new Set<string>();
  return keys.map((key: unknown, i) => {
    const k = (key ?? {}) as Record<string, unknown>;
    if (k.kty !== 'OKP' || k.crv !== 'Ed25519') throw fail(`key ${i} is not kty OKP, crv Ed25519`);
    for (const field of ['x', 'd'] as const) {
      if (typeof k[field] !== 'string' || !BASE64URL.test(k[field])) throw fail(`key ${i} has no ${field}`);
    }
    if (typeof k.kid !== 'string' || !/^[\x21-\x7e]{1,128}$/.test(k.kid)) throw fail(`key ${i} has no kid`);
    if (kids.has(k.kid)) throw fail(`kid ${k.kid} is given twice`);
    kids.add(k.kid);
    return { kty: 'OKP', crv: 'Ed25519', kid: k.kid, x: k.x as string, d: k.d as string };
  });
}

/** The only reader of process.env: validates everything at boot and fails with a message naming the variable. */
export function loadAppConfig(env: Env = process.env): AppConfig {
  const providerCredentials = loadProviderCredentials(env, (message) => new ConfigError(message));
  const collectionProvidersLive = providerMap(env, 'COLLECTION_PROVIDERS_LIVE', '');
  requireLiveKeys('COLLECTION_PROVIDERS_LIVE', collectionProvidersLive, providerCredentials);
  const port = integer(env, 'PORT', 3000, 0, 65535);
  const host = env.HOST || '0.0.0.0';
  const databaseUrl = env.DATABASE_URL
    ? url('DATABASE_URL', env.DATABASE_URL, ['postgres:', 'postgresql:'])
    : undefined;
  const databaseReadUrl = env.DATABASE_READ_URL
    ? url('DATABASE_READ_URL', env.DATABASE_READ_URL, ['postgres:', 'postgresql:'])
    : undefined;
  if (databaseReadUrl && !databaseUrl) throw new ConfigError('DATABASE_READ_URL needs DATABASE_URL (the primary)');
  const publicUrl = url('PUBLIC_URL', (env.PUBLIC_URL || `http://localhost:${port}`).replace(/\/+$/, ''), [
    'http:',
    'https:',
  ]);
  const logLevel = (env.LOG_LEVEL || 'info') as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${env.LOG_LEVEL}"`);
  }
  const rawDataDir = env.DATA_DIR || './.data';
  const dataDir = rawDataDir.startsWith('memory://') || isAbsolute(rawDataDir) ? rawDataDir : resolve(rawDataDir);
  const rateLimit = integer(env, 'RATE_LIMIT', 100, 0, 1_000_000);
  const shutdownGraceMs = integer(env, 'SHUTDOWN_GRACE_MS', 25_000, 0, 600_000);
  const shutdownListenMs = integer(env, 'SHUTDOWN_LISTEN_MS', Math.min(1_000, shutdownGraceMs), 0, 600_000);
  if (shutdownListenMs > shutdownGraceMs) {
    throw new ConfigError(
      `SHUTDOWN_LISTEN_MS must not exceed SHUTDOWN_GRACE_MS (${shutdownGraceMs}), got ${shutdownListenMs}`,
    );
  }
  return {
    port,
    host,
    databaseUrl,
    publicUrl,
    logLevel,
    dataDir,
    dbPoolSize: integer(env, 'DB_POOL_SIZE', 10, 1, 200),
    databaseReadUrl,
    readReplicaMaxLagMs: integer(env, 'READ_REPLICA_MAX_LAG_MS', 1_000, 0, 3_600_000),
    bodyLimitBytes: integer(env, 'BODY_LIMIT_BYTES', 1024 * 1024, 1024, 50 * 1024 * 1024),
    migrateOnBoot: boolean(env, 'MIGRATE_ON_BOOT', databaseUrl === undefined),
    runJobs: boolean(env, 'RUN_JOBS', true),
    billingGracePeriodMs: duration(env, 'BILLING_GRACE_PERIOD', 3_600_000, 30 * 86_400_000),
    rateLimit,
    rateLimitWindowMs: integer(env, 'RATE_LIMIT_WINDOW_MS', 1000, 10, 3_600_000),
    redisUrl: env.REDIS_URL ? url('REDIS_URL', env.REDIS_URL, ['redis:', 'rediss:']) : undefined,
    redisKeyPrefix: redisKeyPrefix(env),
    redisTimeoutMs: integer(env, 'REDIS_TIMEOUT_MS', 250, 10, 60_000),
    apiKeyCacheMs: integer(env, 'API_KEY_CACHE_MS', 5_000, 100, 3_600_000),
    trustedProxies: trustedProxies(env),
    authFailureLimit: integer(env, 'AUTH_FAILURE_RATE_LIMIT', Math.ceil(rateLimit / 4), 0, 1_000_000),
    logFile: env.LOG_FILE || undefined,
    billingProviders: providerMap(env, 'BILLING_PROVIDERS', '*=sandbox'),
    transferProviders: providerMap(env, 'TRANSFER_PROVIDERS', '*=sandbox'),
    collectionProviders: providerMap(env, 'COLLECTION_PROVIDERS', '*=sandbox'),
    billingProvidersLive: liveMap(env, 'BILLING_PROVIDERS_LIVE', providerCredentials),
    transferProvidersLive: liveMap(env, 'TRANSFER_PROVIDERS_LIVE', providerCredentials),
    collectionProvidersLive,
    providerCredentials,
    providerClients: loadProviderClients(env, providerCredentials, publicUrl, (message) => new ConfigError(message)),
    providerReconcileAfterMinutes: integer(env, 'PROVIDER_RECONCILE_AFTER_MINUTES', 15, 1, 24 * 60),
    settlementDelayHours: integer(env, 'SETTLEMENT_DELAY_HOURS', 48, 0, 24 * 90),
    ledgerHotAccounts: accountList(env, 'LEDGER_HOT_ACCOUNTS'),
    billingRetryScheduleDays: retrySchedule(env),
    metricsPort: env.METRICS_PORT ? integer(env, 'METRICS_PORT', 0, 0, 65535) : undefined,
    meterForwardBatch: integer(env, 'METER_FORWARD_BATCH', 500, 1, 5_000),
    meterForwardConcurrency: integer(env, 'METER_FORWARD_CONCURRENCY', 2, 1, 32),
    shutdownGraceMs,
    shutdownListenMs,
    httpKeepAliveTimeoutMs: integer(env, 'HTTP_KEEP_ALIVE_TIMEOUT_MS', 65_000, 1_000, 900_000),
    eventRetentionDays: integer(env, 'EVENT_RETENTION_DAYS', 30, 30, 3650),
    auditRetentionDays: integer(env, 'AUDIT_RETENTION_DAYS', 365, 365, 36500),
    meterEventRetentionDays: integer(env, 'METER_EVENT_RETENTION_DAYS', 431, 431, 3650),
    idempotencyKeyRetentionDays: integer(env, 'IDEMPOTENCY_KEY_RETENTION_DAYS', 2, 2, 90),
    webhookAllowPrivateTargets: boolean(env, 'WEBHOOK_ALLOW_PRIVATE_TARGETS', databaseUrl === undefined),
    webhookEndpointConcurrency: integer(env, 'WEBHOOK_ENDPOINT_CONCURRENCY', 32, 1, 64),
    fileStorage: loadFileStorageConfig(env, (message) => new ConfigError(message)),
    statementSigningKeys: statementSigningKeys(env),
  };
}

export const appConfig = () => ({ app: loadAppConfig() });
