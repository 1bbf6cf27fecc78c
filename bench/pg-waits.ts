import pg from 'pg';

/** One statement kind's share of the samples in which it was running, by what it was doing. */
export interface StatementWaits {
  statement: string;
  /** Samples in which a statement of this kind was active (one per active backend and sample). */
  samples: number;
  /** What it was doing, as shares of its samples, largest first: `CPU` (no wait event) or `type:event`. */
  waits: Array<{ wait: string; share: number }>;
}

/** Which of the metering path's statements a backend is running, from the start of its text. */
function statementKind(query: string): string {
  if (query.includes('incoming AS')) return 'storage statement (requests)';
  if (query.includes('due AS')) return 'forwarder claim (and mark)';
  if (query.includes('billing_sandbox_events')) return 'sandbox billing provider';
  if (query.includes("delivery_status = 'delivered'")) return 'forwarder mark';
  return 'other';
}

/**
 * Samples `pg_stat_activity` for one database's active client backends every `intervalMs` on a
 * connection of its own, and tallies what each statement kind was waiting for: where a statement's
 * time goes inside PostgreSQL (CPU, the WAL flush at commit, locks, I/O), which no timing from the
 * client side can tell apart. Each sample is one cheap catalog read (a fraction of a millisecond of
 * the server's CPU), so it perturbs what it measures a little: the benchmark runs it only when asked
 * (BENCH_WAITS=1).
 */
export class PgWaitSampler {
  private readonly tally = new Map<string, Map<string, number>>();
  private running = false;
  private loop?: Promise<void>;

  constructor(
    private readonly connectionString: string,
    private readonly intervalMs = 10,
  ) {}

  start(): void {
    this.running = true;
    this.loop = this.run();
  }

  /** Stops sampling and returns the tally, statement kinds by samples, largest first. */
  async stop(): Promise<StatementWaits[]> {
    this.running = false;
    await this.loop;
    return [...this.tally]
      .map(([statement, waits]) => {
        const samples = [...waits.values()].reduce((a, b) => a + b, 0);
        return {
          statement,
          samples,
          waits: [...waits]
            .sort((a, b) => b[1] - a[1])
            .map(([wait, n]) => ({ wait, share: Math.round((n / samples) * 1000) / 1000 })),
        };
      })
      .sort((a, b) => b.samples - a.samples);
  }

  private async run(): Promise<void> {
    const client = new pg.Client({ connectionString: this.connectionString });
    await client.connect();
    try {
      while (this.running) {
        const { rows } = await client.query<{ query: string; wait: string }>(
          `SELECT query, coalesce(wait_event_type || ':' || wait_event, 'CPU') AS wait
           FROM pg_stat_activity
           WHERE datname = current_database() AND backend_type = 'client backend' AND state = 'active'
             AND pid <> pg_backend_pid()`,
        );
        for (const row of rows) {
          if (row.query.includes('AS backlog')) continue; // the benchmark's own outbox count
          const kind = statementKind(row.query);
          let waits = this.tally.get(kind);
          if (!waits) this.tally.set(kind, (waits = new Map()));
          waits.set(row.wait, (waits.get(row.wait) ?? 0) + 1);
        }
        await new Promise((r) => setTimeout(r, this.intervalMs));
      }
    } finally {
      await client.end();
    }
  }
}

/** `storage statement (requests), 2,083 samples: IO:WALSync 66%, LWLock:WALWrite 18%, CPU 12%, …` per kind. */
export function formatWaits(waits: StatementWaits[], top = 4): string[] {
  return waits.map(
    (w) =>
      `  ${w.statement}, ${w.samples} samples: ${w.waits
        .slice(0, top)
        .map((x) => `${x.wait} ${Math.round(x.share * 100)}%`)
        .join(', ')}${w.waits.length > top ? ', …' : ''}`,
  );
}
