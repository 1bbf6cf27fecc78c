import { createServer, type Server, type Socket } from 'node:net';
import type { PGlite } from '@electric-sql/pglite';

const SSL_REQUEST = 80877103;
const CANCEL_REQUEST = 80877102;
const PROTOCOL_3 = 196608;

/** Hands PGlite (a single session) to one connection at a time, for whole protocol cycles. */
class SessionLock {
  private owner: number | null = null;
  private readonly waiters: Array<{ id: number; grant: () => void; wants: string }> = [];

  async acquire(id: number, wants: string): Promise<void> {
    if (this.owner === null || this.owner === id) {
      this.owner = id;
      return;
    }
    await new Promise<void>((grant) => this.waiters.push({ id, grant, wants }));
  }

  get holder(): number | null {
    return this.owner;
  }

  /** What the connections queued behind the holder are waiting to run. */
  waiting(): string[] {
    return this.waiters.map((w) => `connection ${w.id}: ${w.wants}`);
  }

  release(id: number): void {
    if (this.owner !== id) return;
    const next = this.waiters.shift();
    this.owner = next ? next.id : null;
    next?.grant();
  }

  isOwner(id: number): boolean {
    return this.owner === id;
  }

  forget(id: number): void {
    const i = this.waiters.findIndex((w) => w.id === id);
    if (i !== -1) this.waiters.splice(i, 1);
  }
}

/** The SQL a cycle carries (simple Query or Parse), shortened, for the idle-in-transaction report. */
function describe(messages: Buffer[]): string {
  for (const m of messages) {
    const type = String.fromCharCode(m[0]);
    let text: string | undefined;
    if (type === 'Q') text = m.subarray(5, m.indexOf(0, 5)).toString('utf8');
    if (type === 'P') {
      const afterName = m.indexOf(0, 5) + 1;
      text = m.subarray(afterName, m.indexOf(0, afterName)).toString('utf8');
    }
    if (text) return text.replace(/\s+/g, ' ').slice(0, 240);
  }
  return messages.length ? `(${messages.map((m) => String.fromCharCode(m[0])).join('')})` : '(startup)';
}

export interface PGliteServerOptions {
  /**
   * PostgreSQL's idle_in_transaction_session_timeout for the one shared session: a connection that
   * keeps the session inside a transaction (or between a Flush and its Sync) without sending
   * anything for this long is ended and its transaction rolled back, so the other connections go
   * on. On a real server such a connection only holds its row locks; here it holds every other
   * connection, and the usual cause is a bug (a query on a second connection while the first one's
   * transaction waits for it), which this turns from a hang into an error with a report naming
   * the statements that were waiting. 0 turns it off.
   */
  idleInTransactionTimeoutMs?: number;
  /** Where that report goes; standard error by default. */
  report?: (message: string) => void;
}

/**
 * A PostgreSQL wire-protocol server in front of PGlite for many concurrent `pg` connections.
 *
 * PGlite is one backend session. pglite-socket's multiplexer queues single protocol messages, so
 * two connections' extended-protocol messages interleave (a Parse from one, a Bind from the other:
 * "bind message supplies 6 parameters, but prepared statement requires 4"). Here a connection
 * gets the session for a whole cycle (up to its Sync or simple Query) and keeps it while a
 * transaction it opened is in progress, which is what a real server's isolation gives a client.
 */
export class PGliteServer {
  private server: Server | undefined;
  private nextId = 1;
  private readonly lock = new SessionLock();
  private readonly sockets = new Set<Socket>();
  private readonly idleTimeoutMs: number;
  private readonly report: (message: string) => void;
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: PGlite,
    options: PGliteServerOptions = {},
  ) {
    this.idleTimeoutMs = options.idleInTransactionTimeoutMs ?? 30_000;
    this.report = options.report ?? ((message) => process.stderr.write(`${message}\n`));
  }

  /** Called when a cycle ends with the session still held: arms the idle-in-transaction timeout. */
  private watchIdle(id: number, last: string, end: () => void): void {
    this.stopIdleWatch();
    if (!this.idleTimeoutMs) return;
    this.idleTimer = setTimeout(() => {
      if (this.lock.holder !== id) return;
      const waiting = this.lock.waiting();
      this.report(
        [
          `embedded PostgreSQL: connection ${id} held the session idle in a transaction for ` +
            `${this.idleTimeoutMs} ms; ending it and rolling its transaction back ` +
            `(idle_in_transaction_session_timeout).`,
          `  its last statement: ${last}`,
          ...(waiting.length ? ['  waiting for the session:', ...waiting.map((w) => `    ${w}`)] : []),
        ].join('\n'),
      );
      end();
    }, this.idleTimeoutMs);
    this.idleTimer.unref();
  }

  private stopIdleWatch(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
  }

  listen(port: number, host: string): Promise<void> {
    this.server = createServer((socket) => this.accept(socket));
    return new Promise((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(port, host, () => resolve());
    });
  }

  async close(): Promise<void> {
    this.stopIdleWatch();
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private accept(socket: Socket): void {
    const id = this.nextId++;
    this.sockets.add(socket);
    socket.setNoDelay(true);
    let buffer: Buffer = Buffer.alloc(0);
    let started = false;
    let cycle: Buffer[] = [];
    let chain: Promise<void> = Promise.resolve();
    let closed = false;

    // keepSession: after a Flush the client waits for answers but its cycle is not over yet.
    const run = (messages: Buffer[], keepSession = false) => {
      const wants = describe(messages);
      chain = chain.then(async () => {
        if (closed) return;
        await this.lock.acquire(id, wants);
        if (closed) {
          // Granted after it went away: hand the session straight on.
          if (!this.db.isInTransaction()) this.lock.release(id);
          return;
        }
        this.stopIdleWatch();
        try {
          for (const message of messages) {
            if (closed) break;
            await this.db.execProtocolRawStream(new Uint8Array(message), {
              onRawData: (data) => {
                if (!closed && socket.writable) socket.write(data);
              },
            });
          }
        } finally {
          if (!keepSession && !this.db.isInTransaction()) this.lock.release(id);
          else if (!closed) this.watchIdle(id, wants, () => socket.destroy());
        }
      });
      chain.catch(() => socket.destroy());
    };

    socket.on('data', (chunk: Buffer) => {
      buffer = buffer.length ? Buffer.concat([buffer, chunk]) : chunk;
      for (;;) {
        if (!started) {
          if (buffer.length < 8) return;
          const length = buffer.readInt32BE(0);
          const code = buffer.readInt32BE(4);
          if (code === SSL_REQUEST) {
            socket.write('N');
            buffer = buffer.subarray(8);
            continue;
          }
          if (code === CANCEL_REQUEST) {
            buffer = buffer.subarray(length);
            continue;
          }
          if (buffer.length < length) return;
          if (code !== PROTOCOL_3) {
            socket.destroy();
            return;
          }
          run([buffer.subarray(0, length)]);
          buffer = buffer.subarray(length);
          started = true;
          continue;
        }
        if (buffer.length < 5) return;
        const length = 1 + buffer.readInt32BE(1);
        if (buffer.length < length) return;
        const message = Buffer.from(buffer.subarray(0, length));
        buffer = buffer.subarray(length);
        const type = String.fromCharCode(message[0]);
        if (type === 'X') {
          socket.end();
          return;
        }
        cycle.push(message);
        if (type === 'S' || type === 'Q' || type === 'H') {
          run(cycle, type === 'H');
          cycle = [];
        }
      }
    });

    const cleanup = () => {
      if (closed) return;
      closed = true;
      this.sockets.delete(socket);
      this.lock.forget(id);
      chain = chain.finally(async () => {
        // A client that vanished inside its transaction must not keep the session.
        if (this.lock.isOwner(id) && this.db.isInTransaction()) await this.db.exec('ROLLBACK').catch(() => undefined);
        this.lock.release(id);
      });
    };
    socket.on('close', cleanup);
    socket.on('error', cleanup);
  }
}
