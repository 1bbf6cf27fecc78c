import { createServer, type Server, type Socket } from 'node:net';
import type { PGlite } from '@electric-sql/pglite';

const SSL_REQUEST = 80877103;
const CANCEL_REQUEST = 80877102;
const PROTOCOL_3 = 196608;

/** Hands PGlite (a single session) to one connection at a time, for whole protocol cycles. */
class SessionLock {
  private owner: number | null = null;
  private readonly waiters: Array<{ id: number; grant: () => void }> = [];

  async acquire(id: number): Promise<void> {
    if (this.owner === null || this.owner === id) {
      this.owner = id;
      return;
    }
    await new Promise<void>((grant) => this.waiters.push({ id, grant }));
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

  constructor(private readonly db: PGlite) {}

  listen(port: number, host: string): Promise<void> {
    this.server = createServer((socket) => this.accept(socket));
    return new Promise((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(port, host, () => resolve());
    });
  }

  async close(): Promise<void> {
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
      chain = chain.then(async () => {
        if (closed) return;
        await this.lock.acquire(id);
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
