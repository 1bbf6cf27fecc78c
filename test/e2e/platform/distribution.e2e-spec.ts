import pg from 'pg';
// @ts-expect-error: a plain ES module script of the project (scripts/), typed by its JSDoc only
import { compareWithKnown, distributionProblems, knownProblems } from '../../../scripts/check-distribution.mjs';

type Report = Record<string, string[]>;
const check = distributionProblems as (query: (sql: string) => Promise<unknown[]>) => Promise<Report>;
const compare = compareWithKnown as (report: Report, known?: Report) => { added: string[]; fixed: string[] };

/**
 * docs/SCALING.md, "Past one primary": the tables of the mode schemas that would not distribute by
 * application_id in Citus as they are, on this run's migrated database (PostgreSQL or the embedded
 * one), are exactly the recorded list (scripts/distribution-known.json): a new table or key is born
 * distributable, and a fixed one leaves the list.
 */
describe('distribution by application (Citus readiness)', () => {
  let client: pg.Client;
  const query = async (sql: string) => (await client.query(sql)).rows as unknown[];

  beforeAll(async () => {
    client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
  });
  afterAll(async () => {
    await client.end();
  });

  it('finds no table or key that is not distributable beyond the recorded list, and every recorded problem still there', async () => {
    const report = await check(query);
    expect(Object.keys(report).length).toBeGreaterThan(50);
    expect(compare(report)).toEqual({ added: [], fixed: [] });
  });

  it('names a new table whose keys lack application_id, and passes one born distributable', async () => {
    await client.query('BEGIN');
    try {
      await client.query(`CREATE TABLE wallet_test.distribution_probe_bad (id uuid PRIMARY KEY, customer_id uuid NOT NULL
        REFERENCES wallet_test.customers (id), reference text UNIQUE)`);
      await client.query(`CREATE TABLE wallet_test.distribution_probe_good (application_id uuid NOT NULL, id uuid NOT NULL,
        reference text NOT NULL, PRIMARY KEY (application_id, id), UNIQUE (application_id, reference))`);
      const report = await check(query);
      expect(report.distribution_probe_good).toEqual([]);
      expect(report.distribution_probe_bad).toEqual([
        'no application_id column',
        'primary key distribution_probe_bad_pkey (id) lacks application_id',
        'unique distribution_probe_bad_reference_key (reference) lacks application_id',
        'foreign key distribution_probe_bad_customer_id_fkey (customer_id) -> customers (id) lacks application_id',
      ]);
      const { added } = compare(report);
      expect(added).toHaveLength(4);
      expect(added.every((a) => a.startsWith('distribution_probe_bad: '))).toBe(true);
      // A problem fixed is reported too, so the recorded list only shrinks.
      const known = knownProblems() as Report;
      expect(compare(report, { ...known, meters: [...(known.meters ?? []), 'a problem since fixed'] }).fixed).toEqual([
        'meters: a problem since fixed',
      ]);
    } finally {
      await client.query('ROLLBACK');
    }
  });
});
