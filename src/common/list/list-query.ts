import { AppError } from '../errors/app-error.js';
import { Errors } from '../errors/error-catalog.js';
import { isUuid } from '../ids.js';

/**
 * A filter value's type. Integers are named by their column's width (`integer` is PostgreSQL's
 * int4, `bigint` its int8), so a value the column cannot hold is a 400, not a database error.
 */
export type FieldType = 'uuid' | 'text' | 'integer' | 'bigint' | 'boolean' | 'timestamp' | 'labels';
export type Operator = 'eq' | 'ne' | 'gt' | 'gte' | 'lt' | 'lte' | 'in';
export const OPERATORS: Operator[] = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in'];

export interface FieldSpec {
  type: FieldType;
  /** SQL expression for the field, built from the query alias; defaults to `alias.field`. */
  column?: string;
  /** Allowed values, for enumerations. */
  values?: readonly string[];
  /** Shape a text value must have (e.g. a currency code), with a description for the error message. */
  pattern?: { regex: RegExp; description: string };
}

/** Shapes list filters share, so every list answers a bad value with the same message. */
export const FilterPatterns = {
  currency: { regex: /^[A-Z]{3}$/, description: 'a three-letter ISO 4217 code in capitals' },
  country: { regex: /^[A-Z]{2}$/, description: 'a two-letter country code' },
  word: { regex: /^[A-Za-z0-9][A-Za-z0-9._:-]{0,99}$/, description: 'letters, digits and . _ : -' },
} as const satisfies Record<string, NonNullable<FieldSpec['pattern']>>;

export interface ListSpec {
  /** Filterable fields (`filter[field]`, `filter[field][op]`): exactly the spec's allow-list. */
  filters: Record<string, FieldSpec>;
  /** Fields `sort` may name; each must also be in `filters` or be `created_at`. */
  sortable: string[];
  /** Columns `q` searches case-insensitively (ids, descriptions, references). */
  search: string[];
  /**
   * For large tables: a `tsvector` SQL expression (with a matching GIN index) over the searchable
   * text, lower-cased with every run of non-alphanumerics replaced by a space. When set, `q`
   * matches records having each word of `q` (the last one as a prefix), and a `q` that
   * is an id matches `id` and the `searchIds` columns exactly, instead of a substring scan of `search`.
   */
  searchVector?: string;
  /** uuid columns (besides `id`) that an id given as `q` is compared with when `searchVector` is set. */
  searchIds?: string[];
  /** Plain query parameters the endpoint accepts besides the common ones (e.g. balance_id). */
  params?: Record<string, FieldSpec>;
  defaultSort?: { field: string; direction: 'asc' | 'desc' };
}

export interface FilterClause {
  field: string;
  op: Operator;
  value: string | number | boolean | Date | Array<string | number | boolean | Date>;
}

export interface ListQuery {
  limit: number;
  page: number;
  useCursor: boolean;
  startingAfter?: string;
  endingBefore?: string;
  sort: { field: string; direction: 'asc' | 'desc' };
  filters: FilterClause[];
  params: Record<string, string | number | boolean | Date>;
  q?: string;
}

const COMMON = new Set(['limit', 'page', 'use-cursor', 'starting_after', 'ending_before', 'sort', 'q']);
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}:\d{2})$/;
const MAX_PAGE = 1_000_000;
/** Free text: letters, digits, spaces and the punctuation of names, emails and references. */
const SEARCH_TEXT = /^[\p{L}\p{N}\p{M} '’.@+_-]+$/u;

/**
 * The allow-listed field `name`, or undefined: an own property only, so `constructor`, `__proto__`
 * or `toString` never reach the prototype chain of the spec's plain object.
 */
export function ownField(fields: Record<string, FieldSpec>, name: string): FieldSpec | undefined {
  return Object.hasOwn(fields, name) ? fields[name] : undefined;
}

function bad(param: string, why: string): AppError {
  return new AppError(Errors.E2004, `Invalid query parameter "${param}": ${why}`);
}

/** PostgreSQL's int4; an int8 column holds every value of at most 18 digits, which the pattern already bounds. */
const INT4 = { min: -2_147_483_648, max: 2_147_483_647 };

function integer(param: string, raw: string, min: number, max: number): number {
  if (!/^\d{1,9}$/.test(raw)) throw bad(param, `must be a whole number from ${min} to ${max}.`);
  const value = Number(raw);
  if (value < min || value > max) throw bad(param, `must be a whole number from ${min} to ${max}.`);
  return value;
}

export function parseValue(param: string, raw: string, spec: FieldSpec): string | number | boolean | Date {
  switch (spec.type) {
    case 'uuid':
      if (!isUuid(raw)) throw bad(param, 'must be an id.');
      return raw.toLowerCase();
    case 'integer':
    case 'bigint': {
      if (!/^-?\d{1,18}$/.test(raw)) throw bad(param, 'must be an integer.');
      const value = Number(raw);
      if (spec.type === 'integer' && (value < INT4.min || value > INT4.max)) {
        throw bad(param, `must be an integer from ${INT4.min} to ${INT4.max}.`);
      }
      return value;
    }
    case 'boolean':
      if (raw !== 'true' && raw !== 'false') throw bad(param, 'must be true or false.');
      return raw === 'true';
    case 'timestamp': {
      const date = new Date(raw);
      if (!RFC3339.test(raw) || Number.isNaN(date.getTime())) throw bad(param, 'must be an RFC 3339 timestamp.');
      return date;
    }
    case 'text':
    case 'labels':
      if (raw.length === 0 || raw.length > 200) throw bad(param, 'must be 1 to 200 characters.');
      if (spec.values && !spec.values.includes(raw)) throw bad(param, `must be one of ${spec.values.join(', ')}.`);
      if (spec.pattern && !spec.pattern.regex.test(raw)) throw bad(param, `must be ${spec.pattern.description}.`);
      return raw;
  }
}

/**
 * Strict parsing of a list request's query string (Express's "simple" parser: keys arrive as
 * written, e.g. `filter[amount][gte]`). Every unknown parameter, field, operator or malformed
 * value is a 400 naming the parameter.
 */
export function parseListQuery(query: Record<string, unknown>, spec: ListSpec): ListQuery {
  const out: ListQuery = {
    limit: 10,
    page: 1,
    useCursor: false,
    sort: spec.defaultSort ?? { field: 'created_at', direction: 'desc' },
    filters: [],
    params: {},
  };
  for (const [param, rawValue] of Object.entries(query)) {
    if (typeof rawValue !== 'string') throw bad(param, 'must be given once, as a single value.');
    const raw = rawValue;
    if (COMMON.has(param)) {
      switch (param) {
        case 'limit':
          out.limit = integer(param, raw, 1, 100);
          break;
        case 'page':
          out.page = integer(param, raw, 1, MAX_PAGE);
          break;
        case 'use-cursor':
          if (raw !== 'true' && raw !== 'false') throw bad(param, 'must be true or false.');
          out.useCursor = raw === 'true';
          break;
        case 'starting_after':
        case 'ending_before':
          if (!isUuid(raw)) throw bad(param, 'must be the id of a record in this list.');
          if (param === 'starting_after') out.startingAfter = raw.toLowerCase();
          else out.endingBefore = raw.toLowerCase();
          break;
        case 'sort': {
          const match = /^([a-z_]+):(asc|desc)$/.exec(raw);
          if (!match) throw bad(param, 'must look like field:asc or field:desc.');
          if (!spec.sortable.includes(match[1]))
            throw bad(param, `cannot sort by "${match[1]}"; allowed: ${spec.sortable.join(', ')}.`);
          out.sort = { field: match[1], direction: match[2] as 'asc' | 'desc' };
          break;
        }
        case 'q':
          if (raw.trim().length === 0 || raw.length > 100) throw bad(param, 'must be 1 to 100 characters.');
          if (!SEARCH_TEXT.test(raw)) {
            throw bad(param, "may hold only letters, digits, spaces and ' . @ + _ -.");
          }
          out.q = raw;
          break;
      }
      continue;
    }
    const filter = /^filter\[([a-z_]+)\](?:\[([a-z]+)\])?$/.exec(param);
    if (filter) {
      const [, field, opRaw] = filter;
      const fieldSpec = ownField(spec.filters, field);
      if (!fieldSpec) throw bad(param, `"${field}" cannot be filtered on.`);
      const op = (opRaw ?? 'eq') as Operator;
      if (!OPERATORS.includes(op)) throw bad(param, `unknown operator "${opRaw}"; use one of ${OPERATORS.join(', ')}.`);
      if ((fieldSpec.type === 'boolean' || fieldSpec.type === 'labels') && !['eq', 'ne', 'in'].includes(op)) {
        throw bad(param, `operator "${op}" does not apply to this field.`);
      }
      const value =
        op === 'in'
          ? raw.split(',').map((part, i, all) => {
              if (all.length > 100) throw bad(param, 'takes at most 100 values.');
              return parseValue(param, part, fieldSpec);
            })
          : parseValue(param, raw, fieldSpec);
      out.filters.push({ field, op, value });
      continue;
    }
    const extra = spec.params ? ownField(spec.params, param) : undefined;
    if (extra) {
      out.params[param] = parseValue(param, raw, extra);
      continue;
    }
    throw bad(param, 'is not a parameter of this list.');
  }
  if (out.startingAfter && out.endingBefore) {
    throw bad('ending_before', 'cannot be combined with starting_after.');
  }
  if ((out.startingAfter || out.endingBefore) && !out.useCursor) out.useCursor = true;
  return out;
}
