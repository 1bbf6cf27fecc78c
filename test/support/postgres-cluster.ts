import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort, until } from './processes.js';

/**
 * The machine's PostgreSQL server binaries (initdb, pg_ctl, pg_basebackup): $PG_BIN, else the
 * newest /usr/lib/postgresql/<version>/bin; undefined when there are none.
 */
export function postgresBinaries(): string | undefined {
  const candidates = process.env.PG_BIN
    ? [process.env.PG_BIN]
    : existsSync('/usr/lib/postgresql')
      ? readdirSync('/usr/lib/postgresql')
          .sort((a, b) => Number(b) - Number(a))
          .map((v) => `/usr/lib/postgresql/${v}/bin`)
      : [];
  return candidates.find((dir) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_basebackup')));
}

/** PostgreSQL refuses to run as root: as root the binaries run as the `postgres` user. */
const asServerUser = (): string[] => (process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--'] : []);

function run(bin: string, tool: string, args: string[]): string {
  const [command, ...prefix] = [...asServerUser(), join(bin, tool)];
  return execFileSync(command, [...prefix, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/**
 * One PostgreSQL server of this machine's binaries, in a directory of its own under the system's
 * temporary directory, on loopback only (trust authentication: nothing else can reach it).
 */
export class PostgresServer {
  private constructor(
    private readonly bin: string,
    readonly dir: string,
    readonly port: number,
    readonly name: string,
  ) {}

  get dataDir(): string {
    return join(this.dir, 'data');
  }

  get logFile(): string {
    return join(this.dir, 'server.log');
  }

  /** The URL of `database` on this server. */
  url(database = 'postgres'): string {
    return `postgresql://postgres@127.0.0.1:${this.port}/${database}`;
  }

  private static async place(bin: string, name: string): Promise<PostgresServer> {
    const dir = mkdtempSync(join(tmpdir(), `wallet-pg-${name}-`));
    if (process.getuid?.() === 0) {
      const { uid, gid } = userIds('postgres');
      chownSync(dir, uid, gid);
    }
    return new PostgresServer(bin, dir, await freePort(), name);
  }

  /**
   * A new primary, ready for streaming standbys. Commits wait for no standby until
   * `waitForStandby` names one (a commit before that standby streams would wait for ever).
   */
  static async primary(bin: string): Promise<PostgresServer> {
    const server = await PostgresServer.place(bin, 'primary');
    run(bin, 'initdb', ['-D', server.dataDir, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8']);
    server.configure({
      wal_level: 'replica',
      max_wal_senders: '8',
      wal_keep_size: "'256MB'",
      synchronous_commit: 'on',
    });
    server.start();
    return server;
  }

  /**
   * A server on its own (no standby), `settings` over this file's defaults: e.g. `fsync = on` for a
   * benchmark that counts what durable commits cost (bench/primary.ts).
   */
  static async alone(bin: string, settings: Record<string, string> = {}): Promise<PostgresServer> {
    const server = await PostgresServer.place(bin, 'alone');
    run(bin, 'initdb', ['-D', server.dataDir, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8']);
    server.configure(settings);
    server.start();
    return server;
  }

  /**
   * A streaming hot standby of `primary` (pg_basebackup -R), reporting as `name` (its cluster_name,
   * which the WAL receiver sends as application_name). It names no synchronous standby of its own,
   * so once promoted it commits alone.
   */
  static async standbyOf(primary: PostgresServer, name: string): Promise<PostgresServer> {
    const server = await PostgresServer.place(primary.bin, name);
    run(primary.bin, 'pg_basebackup', [
      '-h',
      '127.0.0.1',
      '-p',
      String(primary.port),
      '-U',
      'postgres',
      '-D',
      server.dataDir,
      '-R',
      '-X',
      'stream',
      '--checkpoint=fast',
      '--no-sync',
    ]);
    server.configure({ cluster_name: `'${name}'`, synchronous_standby_names: "''", hot_standby: 'on' });
    server.start();
    return server;
  }

  private configure(settings: Record<string, string>): void {
    const base: Record<string, string> = {
      listen_addresses: "'127.0.0.1'",
      port: String(this.port),
      unix_socket_directories: `'${this.dir}'`,
      max_connections: '60',
      shared_buffers: "'32MB'",
      // Each server is a process on this machine: a SIGKILL loses no write the kernel holds, and
      // skipping fsync keeps the test off the shared disk's queue.
      fsync: 'off',
      full_page_writes: 'off',
      log_line_prefix: "'%m [%p] %a '",
    };
    const lines = Object.entries({ ...base, ...settings }).map(([k, v]) => `${k} = ${v}`);
    appendFileSync(
      join(this.dataDir, 'postgresql.conf'),
      `\n# test/support/postgres-cluster.ts\n${lines.join('\n')}\n`,
    );
  }

  /**
   * From now on every commit returns only once `standby` has flushed its WAL
   * (synchronous_standby_names, synchronous_commit on): an acknowledged write survives this
   * server's loss. Resolves when the standby streams as the synchronous one.
   */
  async waitForStandby(standby: string): Promise<void> {
    await this.set({ synchronous_standby_names: `'${standby}'` });
    await until(`${standby} to stream synchronously`, () => this.streams(standby, 'sync'));
  }

  /** Appends settings (`log_statement = 'all'`, …) and reloads the running server. */
  async set(settings: Record<string, string>): Promise<void> {
    this.configure(settings);
    run(this.bin, 'pg_ctl', ['-D', this.dataDir, 'reload']);
  }

  start(): void {
    run(this.bin, 'pg_ctl', ['-D', this.dataDir, '-l', this.logFile, '-w', '-t', '120', 'start']);
  }

  /** The postmaster's pid, from postmaster.pid. */
  get pid(): number {
    return Number(readFileSync(join(this.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  }

  /**
   * A crash: SIGKILL to the postmaster and every process it started (backends, WAL sender, writer),
   * all at once, as when the node is lost. Nothing is flushed or said goodbye to.
   */
  kill(): void {
    for (const pid of [this.pid, ...this.children()]) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  }

  /** The processes the postmaster started and that run now (backends, WAL writer, checkpointer, …). */
  children(): number[] {
    return spawnSync('ps', ['-o', 'pid=', '--ppid', String(this.pid)], { encoding: 'utf8' })
      .stdout.split('\n')
      .map((s) => Number(s.trim()))
      .filter((pid) => pid > 0);
  }

  /** Ends a standby's recovery: it becomes a primary that takes writes (pg_ctl promote, waiting for it). */
  promote(): void {
    run(this.bin, 'pg_ctl', ['-D', this.dataDir, '-w', '-t', '120', 'promote']);
  }

  /** Stops the server if it runs (immediate), and removes its directory. */
  destroy(): void {
    if (existsSync(join(this.dataDir, 'postmaster.pid'))) {
      try {
        run(this.bin, 'pg_ctl', ['-D', this.dataDir, '-m', 'immediate', '-w', 'stop']);
      } catch {
        // A killed server's stale pid file: nothing runs.
      }
    }
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** The rows of `sql` on `database` of this server, through a connection of its own. */
  async query<T = Record<string, unknown>>(sql: string, params: unknown[] = [], database = 'postgres'): Promise<T[]> {
    const client = new pg.Client({ connectionString: this.url(database) });
    // A server killed meanwhile ends the query with an error; the client's own event is not news.
    client.on('error', () => undefined);
    await client.connect();
    try {
      return (await client.query(sql, params)).rows as T[];
    } finally {
      await client.end();
    }
  }

  /** Whether `standby` streams from this primary in the given sync state (`sync`, `async`). */
  async streams(standby: string, state: 'sync' | 'async'): Promise<boolean> {
    const rows = await this.query<{ sync_state: string; state: string }>(
      'SELECT sync_state, state FROM pg_stat_replication WHERE application_name = $1',
      [standby],
    );
    return rows.some((r) => r.state === 'streaming' && r.sync_state === state);
  }
}

function userIds(user: string): { uid: number; gid: number } {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${user}:`));
  if (!line) throw new Error(`no user ${user} to run PostgreSQL as (it refuses root)`);
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}
