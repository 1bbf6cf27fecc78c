import type { Server } from 'node:http';

/**
 * Idle keep-alive connections stay open `timeoutMs` (65 s by default, `HTTP_KEEP_ALIVE_TIMEOUT_MS`)
 * instead of Node's 5 s. A proxy or client in front that keeps idle connections longer than the
 * server (load balancers commonly 60 s) would otherwise send a request on a connection the server
 * is closing at that moment, and get a reset instead of an answer. `headersTimeout` must stay above
 * it, or Node cuts a reused connection whose next request starts late.
 */
export function keepConnectionsOpen(server: Server, timeoutMs: number): void {
  server.keepAliveTimeout = timeoutMs;
  server.headersTimeout = Math.max(server.headersTimeout, timeoutMs + 1_000);
}
