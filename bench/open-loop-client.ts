import net from 'node:net';

/** How a request ended: the HTTP status, or the socket error's code. */
export type Outcome = { status: number } | { error: string };

interface Pending {
  done(outcome: Outcome): void;
}

/** One keep-alive connection carrying one request at a time (no pipelining, as a partner's client). */
class Connection {
  private buffered = '';
  private pending: Pending | undefined;
  readonly socket: net.Socket;

  constructor(host: string, port: number, onIdle: (c: Connection) => void, onGone: (c: Connection) => void) {
    this.socket = net.connect({ host, port, noDelay: true });
    this.socket.setEncoding('latin1');
    this.socket.on('data', (chunk: string) => {
      this.buffered += chunk;
      const outcome = this.parse();
      if (!outcome) return;
      const pending = this.pending;
      this.pending = undefined;
      if (outcome.close) {
        this.socket.destroy();
        onGone(this);
      } else onIdle(this);
      pending?.done({ status: outcome.status });
    });
    const gone = (error: string) => {
      onGone(this);
      const pending = this.pending;
      this.pending = undefined;
      pending?.done({ error });
    };
    this.socket.on('error', (err: NodeJS.ErrnoException) => gone(err.code ?? err.message));
    this.socket.on('close', () => gone('ECONNRESET'));
  }

  send(request: string, pending: Pending): void {
    this.pending = pending;
    this.socket.write(request);
  }

  /** The response once it is whole (Content-Length or chunked body), or nothing yet. */
  private parse(): { status: number; close: boolean } | undefined {
    const headEnd = this.buffered.indexOf('\r\n\r\n');
    if (headEnd === -1) return undefined;
    const head = this.buffered.slice(0, headEnd);
    const end = /\r\ntransfer-encoding:\s*chunked/i.test(head)
      ? chunkedEnd(this.buffered, headEnd + 4)
      : contentLengthEnd(head, headEnd + 4);
    if (end === undefined || this.buffered.length < end) return undefined;
    const status = Number(head.slice(9, 12));
    const close = /\r\nconnection:\s*close/i.test(head);
    this.buffered = this.buffered.slice(end);
    return { status, close };
  }
}

/** Where a Content-Length body ends (latin1: one character per byte, so lengths in characters are bytes). */
function contentLengthEnd(head: string, bodyStart: number): number {
  const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
  return bodyStart + (length ? Number(length[1]) : 0);
}

/** Where a chunked body ends (after the last chunk and its trailers), or undefined while incomplete. */
function chunkedEnd(buffered: string, bodyStart: number): number | undefined {
  let at = bodyStart;
  for (;;) {
    const lineEnd = buffered.indexOf('\r\n', at);
    if (lineEnd === -1) return undefined;
    const size = parseInt(buffered.slice(at, lineEnd), 16);
    if (Number.isNaN(size)) throw new Error(`open-loop client: a bad chunk size: ${buffered.slice(at, lineEnd)}`);
    if (size === 0) {
      const trailersEnd = buffered.indexOf('\r\n', lineEnd + 2);
      if (trailersEnd === -1) return undefined;
      // No trailers: the empty line follows at once; otherwise the body ends at the first empty line.
      if (trailersEnd === lineEnd + 2) return trailersEnd + 2;
      const end = buffered.indexOf('\r\n\r\n', lineEnd);
      return end === -1 ? undefined : end + 4;
    }
    at = lineEnd + 2 + size + 2;
    if (at > buffered.length) return undefined;
  }
}

/**
 * The open-loop generator's HTTP/1.1 client: raw keep-alive sockets (reused last-in first-out, as
 * Node's agent does), requests written as one prebuilt string, responses read up to their
 * Content-Length or last chunk. The generator shares this two-core machine with the service and PostgreSQL, so
 * every cycle it does not take is one they get: at 1,000 requests/s it takes 11-13% of a core this
 * way against 25-26% with `http.request` and a keep-alive agent (`top`, A/B in one session,
 * 2026-11-27; BENCH_CLIENT=http selects that one).
 */
export class OpenLoopClient {
  private readonly idle: Connection[] = [];
  private readonly all = new Set<Connection>();
  /** Requests waiting for a connection while `maxConnections` are busy (as the agent queues them). */
  private readonly waiting: Array<{ body: string; done: (outcome: Outcome) => void }> = [];
  /** Everything before the Content-Length value: the same for every request. */
  private readonly head: string;

  constructor(
    private readonly target: URL,
    headers: Record<string, string>,
    private readonly maxConnections = 512,
  ) {
    let head = `POST ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\n`;
    for (const [name, value] of Object.entries(headers)) head += `${name}: ${value}\r\n`;
    this.head = `${head}Content-Type: application/json\r\nContent-Length: `;
  }

  /** Connections open now (busy or idle). */
  get connections(): number {
    return this.all.size;
  }

  /** POSTs `body` (JSON) on an idle connection, a new one, or the first to free up. */
  post(body: string, done: (outcome: Outcome) => void): void {
    let connection = this.idle.pop();
    if (!connection) {
      if (this.all.size >= this.maxConnections) {
        this.waiting.push({ body, done });
        return;
      }
      connection = new Connection(
        this.target.hostname,
        Number(this.target.port),
        (c) => this.released(c),
        (c) => this.forget(c),
      );
      this.all.add(connection);
    }
    connection.send(this.request(body), { done });
  }

  close(): void {
    for (const { done } of this.waiting.splice(0)) done({ error: 'closed' });
    for (const c of this.all) c.socket.destroy();
    this.all.clear();
    this.idle.length = 0;
  }

  /** The whole request for `body`: the prebuilt head, its length, the body. */
  private request(body: string): string {
    return `${this.head}${Buffer.byteLength(body)}\r\n\r\n${body}`;
  }

  private released(c: Connection): void {
    const next = this.waiting.shift();
    if (next) c.send(this.request(next.body), { done: next.done });
    else this.idle.push(c);
  }

  private forget(c: Connection): void {
    if (!this.all.delete(c)) return;
    const at = this.idle.indexOf(c);
    if (at !== -1) this.idle.splice(at, 1);
    // A waiting request gets the connection this one leaves room for.
    const next = this.waiting.shift();
    if (next) this.post(next.body, next.done);
  }
}
