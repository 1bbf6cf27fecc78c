import 'reflect-metadata';
import { join } from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent.js';
import { createApp } from '../../src/app.factory.js';
import { Clock } from '../../src/common/clock.js';
import { ProviderRegistry } from '../../src/common/providers/provider-registry.js';
import type { Mode } from '../../src/common/context/principal.js';
import { ApplicationsService } from '../../src/modules/applications/index.js';
import { cachedOpenApi } from './openapi-cache.js';
import { createRunDatabase, dropRunDatabase, migrate } from './test-database.js';
import { recordSecret, recordSecretsOfExchanges } from './secrets.js';

recordSecretsOfExchanges();

/**
 * The log every app of this worker writes, at info (one line per request), for the run's secret
 * scan (test/support/secret-scan.mjs); a test's own LOG_FILE or LOG_LEVEL wins.
 */
function logEnv(): Record<string, string> {
  const dir = process.env.WALLET_TEST_LOG_DIR;
  if (!dir) return {};
  return { LOG_LEVEL: 'info', LOG_FILE: join(dir, `app-${process.env.JEST_WORKER_ID ?? '0'}-${process.pid}.log`) };
}

export interface TestApp {
  app: NestExpressApplication;
  http: TestAgent;
  clock: Clock;
  /** Base URL of the running server, for browsers and OAuth clients (only after `listen()`). */
  url: string;
  close(): Promise<void>;
}

/**
 * The real service, with the production pipeline, on the run's database. One per test file.
 * `rateLimit: false` boots it without the per-credential rate limit, for files that make many calls;
 * `env` sets configuration variables for the boot only (the environment is put back afterwards).
 * `ownDatabase` gives the file a database of its own (a fresh migrated one on the run's PostgreSQL,
 * or its own in-memory embedded one), dropped at close: for tests of work that spans every
 * application (background jobs draining a table, gauges over a whole table) and so cannot isolate
 * themselves by tenant. Webhook endpoints get the deployed rule on both databases (no private
 * targets in test mode): a file delivering to a local receiver sets WEBHOOK_ALLOW_PRIVATE_TARGETS.
 */
export async function startApp(
  options: {
    listen?: boolean;
    rateLimit?: boolean;
    env?: Record<string, string>;
    ownDatabase?: boolean;
    /**
     * Live mode served by `live-double` (the sandbox under another name, see ProviderRegistry) in
     * every country for collection, transfer and billing, unless `env` sets a `*_PROVIDERS_LIVE` map.
     * Without it live mode has no provider at all, as a fresh deployment.
     */
    liveDoubles?: boolean;
  } = {},
): Promise<TestApp> {
  const env: Record<string, string> = {
    ...logEnv(),
    // A listening test app closes its listener at once and its idle connections right after, instead
    // of keeping them open for the deployed 1 s: nothing is behind a load balancer here, and each file
    // that listens would wait that second at close. The drain itself is proven on the compiled service
    // (test/e2e/platform/keep-alive-drain and graceful-drain, which start processes with their own values).
    SHUTDOWN_LISTEN_MS: '0',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false',
    ...(options.liveDoubles
      ? {
          COLLECTION_PROVIDERS_LIVE: '*=live-double',
          TRANSFER_PROVIDERS_LIVE: '*=live-double',
          BILLING_PROVIDERS_LIVE: '*=live-double',
        }
      : {}),
    ...options.env,
    ...(options.rateLimit === false ? { RATE_LIMIT: '0' } : {}),
  };
  let dropDatabase = async () => {};
  if (options.ownDatabase) {
    if (process.env.WALLET_TEST_DATABASE === 'postgresql') {
      const url = await createRunDatabase(process.env.DATABASE_URL!);
      await migrate(url);
      env.DATABASE_URL = url;
      dropDatabase = () => dropRunDatabase(url);
    } else Object.assign(env, { DATABASE_URL: '', DATA_DIR: 'memory://' });
  }
  ProviderRegistry.liveDoublesForTests = options.liveDoubles === true;
  let app: NestExpressApplication;
  try {
    const create = () => createApp({ openApi: cachedOpenApi });
    app = Object.keys(env).length > 0 ? await withEnv(env, create) : await create();
  } finally {
    ProviderRegistry.liveDoublesForTests = false;
  }
  let url = '';
  if (options.listen) {
    await app.listen(0, '127.0.0.1');
    const address = app.getHttpServer().address();
    url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  } else {
    await app.init();
  }
  const clock = app.get(Clock);
  return {
    app,
    http: request(app.getHttpServer()),
    clock,
    url,
    close: async () => {
      clock.reset();
      await app.close();
      await dropDatabase();
    },
  };
}

/** Runs `fn` with `vars` set in the environment (config is read at boot), then puts back what was there. */
async function withEnv<T>(vars: Record<string, string>, fn: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  Object.assign(process.env, vars);
  try {
    return await fn();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

let counter = 0;

export interface Tenant {
  slug: string;
  applicationId: string;
  keys: Record<Mode, string>;
  /** `/api/v1/<slug>/platform/wallet<path>` */
  path(path: string): string;
  /** Headers for a secret-key call in `mode` (X-Test-Mode set accordingly). */
  as(mode: Mode, extra?: Record<string, string>): Record<string, string>;
  basic(mode: Mode): string;
}

/** A fresh application with its own keys: what isolates one test from another. */
export async function createTenant(
  t: TestApp,
  options: { countries?: string[]; slug?: string; name?: string } = {},
): Promise<Tenant> {
  counter += 1;
  const slug = options.slug ?? `t-${process.pid}-${Date.now().toString(36)}-${counter}`;
  const created = await t.app.get(ApplicationsService).create({
    slug,
    name: options.name,
    countries: options.countries ?? ['TH'],
  });
  recordSecret(created.keys.test, created.keys.live);
  const basic = (mode: Mode) => `Basic ${Buffer.from(`${created.keys[mode]}:`).toString('base64')}`;
  return {
    slug,
    applicationId: created.application.id,
    keys: created.keys,
    path: (path: string) => `/api/v1/${slug}/platform/wallet${path}`,
    basic,
    as: (mode, extra = {}) => ({
      Authorization: basic(mode),
      'X-Test-Mode': mode === 'test' ? 'true' : 'false',
      'X-Country': (options.countries ?? ['TH'])[0],
      ...extra,
    }),
  };
}

/**
 * Every error response is the spec's flat error object with a request id, the page of its code
 * (`doc_url`), when one parameter is at fault, its name (`param`), and for some codes `params`.
 */
export function expectErrorObject(body: unknown, code: string): void {
  const hasParam = !!body && typeof body === 'object' && 'param' in body;
  const hasParams = !!body && typeof body === 'object' && 'params' in body;
  expect(body).toEqual({
    object: 'error',
    code,
    key: expect.any(String),
    i18n_key: expect.any(String),
    message: expect.any(String),
    // The parameter as the caller named it (a query parameter may hold anything, spaces included).
    ...(hasParam ? { param: expect.stringMatching(/^\S(.*\S)?$/s) } : {}),
    // Named values the message speaks of (the permission a restricted key lacks, the roles allowed).
    ...(hasParams ? { params: expect.any(Object) } : {}),
    doc_url: expect.stringMatching(new RegExp(`/errors/${code}$`)),
    request_id: expect.stringMatching(/^\S{8,}$/),
  });
}
