import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTenant, startApp, type Tenant, type TestApp } from '../../support/harness.js';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

describe('GET /errors/catalog', () => {
  let t: TestApp;
  let tenant: Tenant;
  beforeAll(async () => {
    t = await startApp();
    tenant = await createTenant(t);
  });
  afterAll(() => t.close());

  it('lists every error code the code base names', async () => {
    const named = new Set<string>();
    for (const file of sourceFiles(join(process.cwd(), 'src'))) {
      for (const match of readFileSync(file, 'utf8').matchAll(/\bE([1-9]\d{3})\b/g)) named.add(match[1]);
    }
    const res = await t.http.get(tenant.path('/errors/catalog')).set(tenant.as('live'));
    expect(res.status).toBe(200);
    const listed = new Set(res.body.entries.map((e: { code: number }) => String(e.code)));
    const missing = [...named].filter((code) => !listed.has(code));
    expect(missing).toEqual([]);
    expect(named.size).toBeGreaterThan(20);
  });

  it('has the contract codes with their HTTP statuses, integers as codes, and no duplicates', async () => {
    const res = await t.http.get(tenant.path('/errors/catalog')).set(tenant.as('live'));
    const byCode = new Map<number, { http_status: number; key: string; i18n_key: string }>(
      res.body.entries.map((e: { code: number }) => [e.code, e]),
    );
    expect(byCode.size).toBe(res.body.count);
    const contract: Array<[number, number]> = [
      [1200, 401],
      [1210, 401],
      [1211, 401],
      [1212, 401],
      [1213, 401],
      [1300, 403],
      [1303, 403],
      [1304, 403],
    ];
    for (const [code, status] of contract) expect(byCode.get(code)?.http_status).toBe(status);
    expect(byCode.get(6422)).toBeDefined();
    for (const entry of byCode.values()) expect(entry.i18n_key).toMatch(/^errors\.[a-z]+\.[a-z_]+$/);
  });
});
