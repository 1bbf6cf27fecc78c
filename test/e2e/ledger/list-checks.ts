import type { Tenant, TestApp } from '../../support/harness.js';
import { expectErrorObject } from '../../support/harness.js';

export type Row = Record<string, unknown> & { id: string; created_at: string };

/** The order of the default sort: created_at desc, id desc. */
export function byCreatedDesc(a: Row, b: Row): number {
  if (a.created_at !== b.created_at) return a.created_at < b.created_at ? 1 : -1;
  return a.id < b.id ? 1 : -1;
}

export async function getList(t: TestApp, tenant: Tenant, path: string, query: Record<string, string>) {
  const res = await t.http.get(tenant.path(path)).query(query).set(tenant.as('test'));
  if (res.status !== 200)
    throw new Error(`${path} ${JSON.stringify(query)} -> ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as {
    object: string;
    data: Row[];
    page: number;
    limit: number;
    total_items: number;
    total_pages: number;
    has_more?: boolean;
  };
}

export async function ids(t: TestApp, tenant: Tenant, path: string, query: Record<string, string>): Promise<string[]> {
  return (await getList(t, tenant, path, { limit: '100', ...query })).data.map((r) => r.id);
}

/** Each filter query lists exactly the rows of `rows` its predicate picks, in the same order. */
export async function expectFilters(
  t: TestApp,
  tenant: Tenant,
  path: string,
  rows: Row[],
  cases: Array<[Record<string, string>, (r: Row) => boolean]>,
): Promise<void> {
  for (const [query, pred] of cases) {
    const expected = rows.filter(pred).map((r) => r.id);
    expect([JSON.stringify(query), await ids(t, tenant, path, query)]).toEqual([JSON.stringify(query), expected]);
  }
}

/** Walks a list with cursors forwards, calling `between` after every page. */
export async function walkForwards(
  t: TestApp,
  tenant: Tenant,
  path: string,
  limit: number,
  between: (pageNo: number) => Promise<void>,
): Promise<{ ids: string[]; hasMore: boolean[] }> {
  const out: string[] = [];
  const hasMore: boolean[] = [];
  let after: string | undefined;
  for (let pageNo = 1; pageNo < 50; pageNo++) {
    const page = await getList(t, tenant, path, {
      'use-cursor': 'true',
      limit: String(limit),
      ...(after ? { starting_after: after } : {}),
    });
    out.push(...page.data.map((r) => r.id));
    hasMore.push(page.has_more === true);
    if (!page.has_more) break;
    after = page.data[page.data.length - 1].id;
    await between(pageNo);
  }
  return { ids: out, hasMore };
}

/** The request must be refused with a 400 E2004 whose message names `param`. */
export async function expectBadParameter(
  t: TestApp,
  tenant: Tenant,
  path: string,
  query: Record<string, string>,
  param: string,
): Promise<void> {
  const res = await t.http.get(tenant.path(path)).query(query).set(tenant.as('test'));
  if (res.status !== 400) throw new Error(`${JSON.stringify(query)} answered ${res.status}, not 400`);
  expectErrorObject(res.body, 'E2004');
  expect(res.body.message).toContain(`"${param}"`);
}

/** Parameters holding SQL that every list must refuse with a 400 naming the parameter. */
export function sqlInjections(extra: Record<string, string>): Array<[Record<string, string>, string]> {
  const cases: Array<[Record<string, string>, string]> = [
    [{ q: "x'; DROP TABLE customers; --" }, 'q'],
    [{ q: "' OR 1=1 --" }, 'q'],
    [{ sort: 'created_at:desc; DROP TABLE x' }, 'sort'],
    [{ sort: 'created_at:desc,(SELECT 1)' }, 'sort'],
    [{ limit: '10; DELETE FROM x' }, 'limit'],
    [{ page: '1 OR 1=1' }, 'page'],
    [{ 'use-cursor': "true' --" }, 'use-cursor'],
    [{ starting_after: "' OR '1'='1" }, 'starting_after'],
    [{ ending_before: '1); DROP TABLE x; --' }, 'ending_before'],
    [{ 'filter[id]': "' OR '1'='1" }, 'filter[id]'],
    [{ 'filter[amount][gte]': '1 OR 1=1' }, 'filter[amount][gte]'],
    [{ 'filter[created_at][lt]': "now()'; --" }, 'filter[created_at][lt]'],
    [{ 'filter[currency]': "THB' OR 'a'='a" }, 'filter[currency]'],
    [{ 'filter[amount) OR (1=1][eq]': '1' }, 'filter[amount) OR (1=1][eq]'],
  ];
  for (const [param, value] of Object.entries(extra)) cases.push([{ [param]: value }, param]);
  return cases;
}

/** The kinds of bad parameter every list refuses. */
export function badParameters(): Array<[Record<string, string>, string]> {
  return [
    [{ 'filter[nope]': '1' }, 'filter[nope]'],
    [{ colour: 'red' }, 'colour'],
    [{ 'filter[amount][like]': '1' }, 'filter[amount][like]'],
    [{ 'filter[amount][between]': '1,2' }, 'filter[amount][between]'],
    [{ limit: '0' }, 'limit'],
    [{ limit: '101' }, 'limit'],
    [{ limit: 'ten' }, 'limit'],
    [{ page: '0' }, 'page'],
    [{ 'use-cursor': 'yes' }, 'use-cursor'],
    [{ 'use-cursor': 'true', starting_after: 'not-a-cursor' }, 'starting_after'],
    [{ 'use-cursor': 'true', ending_before: '12345' }, 'ending_before'],
    [{ 'use-cursor': 'true', starting_after: '0193a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b' }, 'starting_after'],
    [{ sort: 'metadata:asc' }, 'sort'],
    [{ sort: 'created_at:sideways' }, 'sort'],
    [{ 'filter[created_at][gte]': 'yesterday' }, 'filter[created_at][gte]'],
    [{ 'filter[amount]': '12.5' }, 'filter[amount]'],
  ];
}
