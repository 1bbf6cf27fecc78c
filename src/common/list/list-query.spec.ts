import { AppError } from '../errors/app-error.js';
import { ListFilters } from './list-filters.js';
import { parseListQuery, type ListSpec } from './list-query.js';

const SPEC: ListSpec = {
  filters: { status_code: { type: 'integer' }, amount: ListFilters.money },
  sortable: ['created_at'],
  search: [],
};

function codeOf(query: Record<string, string>): string {
  try {
    parseListQuery(query, SPEC);
    return 'ok';
  } catch (err) {
    if (err instanceof AppError) return `${err.definition.code} ${err.detail}`;
    throw err;
  }
}

describe('integer list filters', () => {
  it('bound an integer (int4) filter by its column: E2004 outside -2147483648..2147483647', () => {
    expect(codeOf({ 'filter[status_code][gte]': '2147483647' })).toBe('ok');
    expect(codeOf({ 'filter[status_code][lte]': '-2147483648' })).toBe('ok');
    expect(codeOf({ 'filter[status_code][gte]': '2147483648' })).toBe(
      'E2004 Invalid query parameter "filter[status_code][gte]": must be an integer from -2147483648 to 2147483647.',
    );
    expect(codeOf({ 'filter[status_code]': '-2147483649' })).toMatch(/^E2004 /);
    expect(codeOf({ 'filter[status_code][in]': '200,2147483648' })).toMatch(/^E2004 /);
  });

  it('take an amount (bigint) of up to 18 digits and refuse a longer one', () => {
    expect(codeOf({ 'filter[amount][gte]': '2147483648' })).toBe('ok');
    expect(codeOf({ 'filter[amount][gte]': '-999999999999999999' })).toBe('ok');
    expect(codeOf({ 'filter[amount][gte]': '9223372036854775808' })).toBe(
      'E2004 Invalid query parameter "filter[amount][gte]": must be an integer.',
    );
  });
});
