import { type FieldSpec, FilterPatterns } from './list-query.js';

/**
 * The filter fields the lists share, declared once: every list that filters on a currency, an
 * amount or a timestamp parses, bounds and documents it alike (`filter[amount][gte]=…` answers the
 * same 400 on charges as on payouts). A list's own fields (enumerations of its statuses, a
 * pattern only it needs) stay in its spec.
 */
export const ListFilters = {
  uuid: { type: 'uuid' },
  text: { type: 'text' },
  boolean: { type: 'boolean' },
  timestamp: { type: 'timestamp' },
  labels: { type: 'labels' },
  /** Every money column (amounts, totals, balances) is a bigint of minor units. */
  money: { type: 'bigint' },
  currency: { type: 'text', pattern: FilterPatterns.currency },
  country: { type: 'text', pattern: FilterPatterns.country },
  /** Codes, references and names: letters, digits and `. _ : -`. */
  word: { type: 'text', pattern: FilterPatterns.word },
  /** A text field that takes one of `values` (a status, a kind). */
  oneOf: (values: readonly string[]): FieldSpec => ({ type: 'text', values }),
  /** `filter[created]`: the older name of `created_at` some lists keep; `alias` is the list query's. */
  createdOf: (alias: string): FieldSpec => ({ type: 'timestamp', column: `${alias}.created_at` }),
} as const satisfies Record<string, FieldSpec | ((...args: never[]) => FieldSpec)>;
