import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGliteServer, type PGliteServerOptions } from './pglite-server.js';

const STATE_FILE = 'embedded-server.json';

interface ServerState {
  pid: number;
  port: number;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        address && typeof address === 'object' ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const urlFor = (port: number) => `postgresql://postgres@127.0.0.1:${port}/postgres`;

/**
 * The embedded default: PGlite (PostgreSQL compiled to WebAssembly) in this process, served to the
 * ordinary `pg` driver over a loopback socket, so the rest of the service cannot tell it from a
 * real server. A PGlite data directory can be opened by one process only: while a server holds it,
 * it advertises its port in the data directory and other processes (the CLI) connect to that.
 */
export class EmbeddedPostgres {
  private constructor(
    private readonly db: PGlite,
    private readonly server: PGliteServer,
    readonly port: number,
    private readonly stateFile: string | undefined,
  ) {}

  get url(): string {
    return urlFor(this.port);
  }

  /** The URL of an embedded server another live process already runs on `dataDir`, if any. */
  static runningOn(dataDir: string): string | undefined {
    if (dataDir.startsWith('memory://')) return undefined;
    try {
      const state = JSON.parse(readFileSync(join(dataDir, STATE_FILE), 'utf8')) as ServerState;
      return state.pid !== process.pid && alive(state.pid) ? urlFor(state.port) : undefined;
    } catch {
      return undefined;
    }
  }

  static async start(dataDir: string, options: PGliteServerOptions = {}): Promise<EmbeddedPostgres> {
    const inMemory = dataDir.startsWith('memory://');
    if (!inMemory) mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const db = await PGlite.create(inMemory ? 'memory://' : join(dataDir, 'pgdata'));
    const port = await freePort();
    const server = new PGliteServer(db, options);
    await server.listen(port, '127.0.0.1');
    let stateFile: string | undefined;
    if (!inMemory) {
      stateFile = join(dataDir, STATE_FILE);
      writeFileSync(stateFile, JSON.stringify({ pid: process.pid, port } satisfies ServerState), { mode: 0o600 });
    }
    return new EmbeddedPostgres(db, server, port, stateFile);
  }

  async stop(): Promise<void> {
    if (this.stateFile) rmSync(this.stateFile, { force: true });
    await this.server.close();
    await this.db.close();
  }
}
