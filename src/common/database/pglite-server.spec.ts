import pg from 'pg';
import { EmbeddedPostgres } from './embedded-postgres.js';

/**
 * A limit against hangs, not a speed check: a fresh in-memory PGlite runs initdb in WebAssembly,
 * ~2 s on a quiet machine and over 100 s at load average 18 (two CI runs at once took 124 s and
 * 152 s, the second past the 120 s default).
 */
const START_LIMIT_MS = 600_000;

describe('embedded PostgreSQL server', () => {
  let embedded: EmbeddedPostgres;
  let pool: pg.Pool;

  beforeAll(async () => {
    embedded = await EmbeddedPostgres.start('memory://');
    pool = new pg.Pool({ connectionString: embedded.url, max: 8 });
    await pool.query('CREATE TABLE counter (id int PRIMARY KEY, n int NOT NULL)');
    await pool.query('INSERT INTO counter VALUES (1, 0)');
  }, START_LIMIT_MS);

  afterAll(async () => {
    await pool.end();
    await embedded.stop();
  });

  it('keeps concurrent extended-protocol queries of different shapes apart', async () => {
    const queries = Array.from({ length: 200 }, (_, i) =>
      i % 2 === 0
        ? pool.query('SELECT $1::int + $2::int AS v', [i, 1]).then((r) => r.rows[0].v === i + 1)
        : pool
            .query('SELECT $1::int * $2::int + $3::int + $4::int - $5::int - $6::int AS v', [i, 2, 3, 4, 3, 4])
            .then((r) => r.rows[0].v === i * 2),
    );
    expect((await Promise.all(queries)).every(Boolean)).toBe(true);
  });

  it('isolates transactions of concurrent connections', async () => {
    const increments = Array.from({ length: 40 }, async () => {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const { rows } = await client.query('SELECT n FROM counter WHERE id = $1', [1]);
        await client.query('UPDATE counter SET n = $1 WHERE id = $2', [rows[0].n + 1, 1]);
        await client.query('COMMIT');
      } finally {
        client.release();
      }
    });
    await Promise.all(increments);
    expect((await pool.query('SELECT n FROM counter WHERE id = 1')).rows[0].n).toBe(40);
  });

  it('rolls back the transaction of a client that disconnects inside it', async () => {
    const client = new pg.Client({ connectionString: embedded.url });
    await client.connect();
    await client.query('BEGIN');
    await client.query('UPDATE counter SET n = -1 WHERE id = 1');
    await client.end();
    expect((await pool.query('SELECT n FROM counter WHERE id = 1')).rows[0].n).toBe(40);
  });

  it(
    'ends a connection idle in a transaction that holds the others (idle_in_transaction_session_timeout)',
    async () => {
      const reports: string[] = [];
      const strict = await EmbeddedPostgres.start('memory://', {
        // Long enough that a loaded machine never leaves the holder idle this long between its own statements.
        idleInTransactionTimeoutMs: 3_000,
        report: (message) => reports.push(message),
      });
      try {
        const holder = new pg.Client({ connectionString: strict.url });
        const other = new pg.Client({ connectionString: strict.url });
        holder.on('error', () => undefined);
        await holder.connect();
        await other.connect();
        await holder.query('CREATE TABLE t (n int)');
        await holder.query('BEGIN');
        await holder.query('INSERT INTO t VALUES (1)');
        // The holder now waits for something that waits for the session: without the timeout, forever.
        const { rows } = await other.query('SELECT count(*)::int AS n FROM t WHERE n > $1', [0]);
        expect(rows[0].n).toBe(0); // the holder's insert was rolled back
        await expect(holder.query('COMMIT')).rejects.toThrow();
        expect(reports).toHaveLength(1);
        expect(reports[0]).toContain('INSERT INTO t VALUES (1)');
        expect(reports[0]).toContain('SELECT count(*)::int AS n FROM t WHERE n > $1');
        await other.end();
      } finally {
        await strict.stop();
      }
    },
    START_LIMIT_MS,
  );
});
