import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseProxy } from '../../support/database-proxy.js';
import { createTenant, expectErrorObject, startApp, type TestApp } from '../../support/harness.js';

describe('database outage', () => {
  let t: TestApp;
  let proxy: DatabaseProxy;
  const dir = mkdtempSync(join(tmpdir(), 'wallet-outage-'));
  const logFile = join(dir, 'app.log');

  beforeAll(async () => {
    proxy = await DatabaseProxy.inFrontOf(process.env.DATABASE_URL!);
    t = await startApp({ rateLimit: false, env: { DATABASE_URL: proxy.url, LOG_LEVEL: 'info', LOG_FILE: logFile } });
  });
  afterAll(async () => {
    await proxy.open().catch(() => undefined);
    await t.close();
    await proxy.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers 503 E5001 with Retry-After while the database is unreachable, and 200 once it is back', async () => {
    const tenant = await createTenant(t);
    const list = () => t.http.get(tenant.path('/customers')).set(tenant.as('test'));
    const create = () => t.http.post(tenant.path('/customers')).set(tenant.as('test')).send({ name: 'Outage' });
    expect((await list()).status).toBe(200);

    await proxy.close();
    for (const res of [await list(), await create(), await list()]) {
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 503, code: 'E5001' });
      expectErrorObject(res.body, 'E5001');
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }

    await proxy.open();
    let back = await list();
    // The pool may still hand out a connection cut during the outage once; the next request gets a fresh one.
    for (let i = 0; i < 5 && back.status !== 200; i++) back = await list();
    expect(back.status).toBe(200);
    expect((await create()).status).toBe(200);

    // The log says what happened once per request, as a warning without a stack: an outage is not
    // a crash of the service, and its log stays readable.
    const lines = readFileSync(logFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { level: number; msg: string; err?: unknown; database?: { message: string } });
    const outage = lines.filter((line) => line.msg.startsWith('database unavailable on '));
    expect(outage.length).toBeGreaterThanOrEqual(3);
    expect(outage.every((line) => line.level === 40 && line.err === undefined)).toBe(true);
    expect(outage[0].database?.message).toMatch(/ECONNREFUSED|terminat|closed|connect/i);
    expect(lines.filter((line) => line.msg.startsWith('unhandled error'))).toEqual([]);
  });
});
