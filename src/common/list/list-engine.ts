import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { ApiProperty } from '@nestjs/swagger';
import { AppError } from '../errors/app-error.js';
import { Errors } from '../errors/error-catalog.js';
import { isUuid } from '../ids.js';
import { type FieldSpec, type FilterClause, type ListQuery, type ListSpec, ownField } from './list-query.js';

/**
 * `total_items` is exact up to this many matching records; above it, it is PostgreSQL's planner
 * estimate for the same query (never less than EXACT_COUNT_LIMIT + 1), so that a count never
 * walks a million rows. Small or well-filtered lists (one balance, one customer) stay exact.
 */
export const EXACT_COUNT_LIMIT = 10_000;

export interface ListEnvelope<T> {
  object: 'list';
  data: T[];
  page: number;
  limit: number;
  total_items: number;
  total_pages: number;
  has_more?: boolean;
}

export class ListEnvelopeDto {
  @ApiProperty({ example: 'list' }) object: string;
  @ApiProperty({ example: 1 }) page: number;
  @ApiProperty({ example: 10 }) limit: number;
  @ApiProperty({ example: 42 }) total_items: number;
  @ApiProperty({ example: 5 }) total_pages: number;
  @ApiProperty({ required: false, description: 'Cursor mode only: whether more records follow in this direction.' })
  has_more?: boolean;
}

function column(alias: string, field: string, spec?: FieldSpec): string {
  return spec?.column ?? `${alias}.${field}`;
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Applies filters, extra parameters and `q` to a query that is already scoped to the application. */
export function applyListFilters<T extends ObjectLiteral>(
  qb: SelectQueryBuilder<T>,
  spec: ListSpec,
  query: ListQuery,
): SelectQueryBuilder<T> {
  const alias = qb.alias;
  query.filters.forEach((f: FilterClause, i) => {
    const fieldSpec = ownField(spec.filters, f.field);
    if (!fieldSpec) throw new Error(`list filter "${f.field}" is not in the list's allow-list`);
    const col = column(alias, f.field, fieldSpec);
    const p = `lf${i}`;
    if (fieldSpec.type === 'labels') {
      const values = Array.isArray(f.value) ? f.value : [f.value];
      const contains = values.map((_, j) => `${col} @> CAST(:${p}_${j} AS jsonb)`).join(' OR ');
      const params = Object.fromEntries(values.map((v, j) => [`${p}_${j}`, JSON.stringify([v])]));
      qb.andWhere(f.op === 'ne' ? `NOT (${contains})` : `(${contains})`, params);
      return;
    }
    switch (f.op) {
      case 'eq':
        qb.andWhere(`${col} = :${p}`, { [p]: f.value });
        break;
      case 'ne':
        qb.andWhere(`${col} IS DISTINCT FROM :${p}`, { [p]: f.value });
        break;
      case 'gt':
        qb.andWhere(`${col} > :${p}`, { [p]: f.value });
        break;
      case 'gte':
        qb.andWhere(`${col} >= :${p}`, { [p]: f.value });
        break;
      case 'lt':
        qb.andWhere(`${col} < :${p}`, { [p]: f.value });
        break;
      case 'lte':
        qb.andWhere(`${col} <= :${p}`, { [p]: f.value });
        break;
      case 'in':
        qb.andWhere(`${col} IN (:...${p})`, { [p]: f.value });
        break;
    }
  });
  if (query.q && spec.searchVector) {
    const q: string = query.q;
    if (isUuid(q as unknown)) {
      const ids = [`${alias}.id`, ...(spec.searchIds ?? []).map((c) => (c.includes('.') ? c : `${alias}.${c}`))];
      qb.andWhere(`(${ids.map((c) => `${c} = :lqid`).join(' OR ')})`, { lqid: q.toLowerCase() });
    } else {
      const words = q.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
      if (words.length === 0) qb.andWhere('1 = 0');
      else {
        qb.andWhere(`${spec.searchVector} @@ to_tsquery('simple', :lts)`, {
          // Whole words, and the last one as a prefix (search as you type): a prefix term makes
          // PostgreSQL gather every match of it into a bitmap, so a common word as a prefix would
          // cost a scan of its whole posting list, while an exact word lets the GIN scan skip.
          lts: words.map((w, i) => (i === words.length - 1 ? `${w}:*` : w)).join(' & '),
        });
      }
    }
  } else if (query.q) {
    const ors = spec.search.map((c) => `${c.includes('.') ? c : `${alias}.${c}`}::text ILIKE :lq ESCAPE '\\'`);
    qb.andWhere(`(${ors.join(' OR ')})`, { lq: `%${escapeLike(query.q)}%` });
  }
  return qb;
}

/**
 * Runs a list in page mode (OFFSET, for humans paging a table) or cursor mode (keyset on
 * `(sort field, id)`, never OFFSET), and fills the spec's envelope.
 */
export async function runList<T extends ObjectLiteral, R>(
  base: SelectQueryBuilder<T>,
  spec: ListSpec,
  query: ListQuery,
  toResponse: (row: T) => R,
): Promise<ListEnvelope<R>> {
  const alias = base.alias;
  const filtered = applyListFilters(base, spec, query);
  const sortCol = column(alias, query.sort.field, ownField(spec.filters, query.sort.field));
  const idCol = `${alias}.id`;
  const dir = query.sort.direction.toUpperCase() as 'ASC' | 'DESC';
  const reverse = dir === 'ASC' ? 'DESC' : 'ASC';

  // A word search that matches few records is answered fastest from the search index and a sort of
  // the matches; walking the sort index and testing every row for the words can cost a full scan.
  // The planner misjudges how rare a searched prefix is, so the order expression is wrapped to keep
  // it off the sort index when the (exact) count says the matches are few. That needs the count
  // first; every other list counts and reads its page at the same time, on two connections.
  const search = query.q !== undefined && spec.searchVector !== undefined;
  const fetchPage = async (fewMatches: boolean): Promise<{ rows: T[]; hasMore?: boolean }> => {
    const orderCol = fewMatches ? `COALESCE(${sortCol}, ${sortCol})` : sortCol;
    if (!query.useCursor) {
      const rows = await filtered
        .clone()
        .orderBy(orderCol, dir)
        .addOrderBy(idCol, dir)
        .offset((query.page - 1) * query.limit)
        .limit(query.limit)
        .getMany();
      return { rows };
    }
    const cursorId = query.startingAfter ?? query.endingBefore;
    const backwards = query.endingBefore !== undefined;
    const page = filtered.clone();
    if (cursorId) {
      const anchor = await filtered
        .clone()
        .select(`${sortCol}`, 'v')
        .andWhere(`${idCol} = :cursorId`, { cursorId })
        .getRawOne<{ v: unknown }>();
      if (!anchor) {
        throw new AppError(
          Errors.E2004,
          `Invalid query parameter "${backwards ? 'ending_before' : 'starting_after'}": no record with this id is in the list.`,
        );
      }
      const after = (dir === 'DESC') !== backwards ? '<' : '>';
      page.andWhere(`(${sortCol}, ${idCol}) ${after} (:anchor, :cursorId)`, { anchor: anchor.v, cursorId });
    }
    const order = backwards ? reverse : dir;
    const fetched = await page
      .orderBy(orderCol, order)
      .addOrderBy(idCol, order)
      .limit(query.limit + 1)
      .getMany();
    const rows = fetched.slice(0, query.limit);
    if (backwards) rows.reverse();
    return { rows, hasMore: fetched.length > query.limit };
  };

  let total: number;
  let result: { rows: T[]; hasMore?: boolean };
  if (search) {
    total = await countItems(filtered);
    result = await fetchPage(total <= EXACT_COUNT_LIMIT);
  } else {
    [total, result] = await Promise.all([countItems(filtered), fetchPage(false)]);
  }
  const { rows, hasMore } = result;

  return {
    object: 'list',
    data: rows.map(toResponse),
    page: query.useCursor ? 1 : query.page,
    limit: query.limit,
    total_items: total,
    total_pages: Math.ceil(total / query.limit),
    ...(hasMore === undefined ? {} : { has_more: hasMore }),
  };
}

/** Exact up to EXACT_COUNT_LIMIT, else the planner's estimate (see EXACT_COUNT_LIMIT). */
async function countItems<T extends ObjectLiteral>(filtered: SelectQueryBuilder<T>): Promise<number> {
  const [sql, params] = filtered
    .clone()
    .orderBy()
    .select('1')
    .limit(EXACT_COUNT_LIMIT + 1)
    .getQueryAndParameters();
  const rows: Array<{ n: number | string }> = await filtered.connection.query(
    `SELECT count(*) AS n FROM (${sql}) AS capped`,
    params,
  );
  const exact = Number(rows[0].n);
  if (exact <= EXACT_COUNT_LIMIT) return exact;
  const [countSql, countParams] = filtered.clone().orderBy().select('1').getQueryAndParameters();
  const plan: Array<{ 'QUERY PLAN': Array<{ Plan: { 'Plan Rows': number } }> }> = await filtered.connection.query(
    `EXPLAIN (FORMAT JSON) ${countSql}`,
    countParams,
  );
  const estimate = Math.round(plan[0]['QUERY PLAN'][0].Plan['Plan Rows']);
  return Math.max(estimate, EXACT_COUNT_LIMIT + 1);
}
