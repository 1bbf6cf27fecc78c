/**
 * The rows of an `UPDATE`/`INSERT … RETURNING` read through TypeORM's `query()`: node-postgres
 * answers them as `[rows, count]` (for an UPDATE), PGlite and a SELECT as the rows themselves.
 */
export function returnedRows<T>(result: unknown): T[] {
  return (Array.isArray(result) && Array.isArray(result[0]) ? result[0] : result) as T[];
}
