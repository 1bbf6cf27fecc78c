import {
  type Agent,
  createServer as createHttpServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type RequestListener,
  type Server,
} from 'node:http';
import { createServer } from 'node:net';

/** A loopback port nobody listens on right now, for a service process a test starts. */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** An HTTP server listening on a free loopback port (a local fake of a provider or a store). */
export async function listenOnLoopback(handler: RequestListener): Promise<{ server: Server; port: number }> {
  const port = await freePort();
  const server = createHttpServer(handler);
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { server, port };
}

/** Closes `server` at once, its open (keep-alive) connections included. */
export async function closeNow(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/**
 * Polls `condition` every `everyMs` until it holds; fails naming `what` (with `detail()`) after a
 * generous `timeoutMs`: a guard against a hang, not a speed check.
 */
export async function until(
  what: string,
  condition: () => boolean | Promise<boolean>,
  detail: () => string = () => '',
  { timeoutMs = 60_000, everyMs = 20 }: { timeoutMs?: number; everyMs?: number } = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}: ${detail()}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  /** Whether the request went out on a kept-alive connection that had answered before. */
  reusedSocket: boolean;
}

/**
 * One request to a service process on loopback `port` through `agent` (its keep-alive pool);
 * rejects with the socket error (ECONNRESET, ECONNREFUSED, ...) when no complete response came,
 * its `reusedSocket` saying whether the request went out on a kept-alive connection.
 */
export function sendOn(
  port: number,
  agent: Agent,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: object,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        agent,
        headers: { ...headers, ...(payload ? { 'Content-Type': 'application/json' } : {}) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text, reusedSocket: req.reusedSocket }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', (err: NodeJS.ErrnoException & { reusedSocket?: boolean }) => {
      err.reusedSocket = req.reusedSocket;
      reject(err);
    });
    req.end(payload);
  });
}
