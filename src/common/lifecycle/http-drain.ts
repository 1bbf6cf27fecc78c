import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';
import { type BeforeApplicationShutdown, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { HttpAdapterHost } from '@nestjs/core';
import type { AllConfig } from '../../config/app.config.js';
import { Draining } from './draining.js';

/** How often, once the listener is closed, connections are checked for having been idle long enough. */
const SWEEP_MS = 100;

/**
 * Graceful HTTP drain on shutdown, bounded by `SHUTDOWN_GRACE_MS`; whatever is still open at its
 * end is cut. Runs in `beforeApplicationShutdown`, so pools close only after the requests that use
 * them are done.
 *
 * 1. From the signal, every response carries `Connection: close`, so each connection closes right
 *    after its next answer, and `/readyz` answers 503 (Draining). For `SHUTDOWN_LISTEN_MS` the
 *    listener still accepts: a load balancer that has not yet seen the pod go gets answers, not
 *    refusals.
 * 2. Then the listener closes. Open connections are not closed while a client may be using them:
 *    a request on one (even one already on the wire) is answered, with `Connection: close`. Only a
 *    connection that has carried no request for `SHUTDOWN_LISTEN_MS` is closed by the server,
 *    since closing an idle keep-alive connection races a client that is just sending on it, and a
 *    client that is still sending has long used it by then.
 */
@Injectable()
export class HttpDrain implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private server: Server | undefined;
  /** Every open client connection: its requests not yet answered, and since when it has had none (performance.now() ms). */
  private readonly connections = new Map<Socket, { busy: number; idleSince: number }>();
  private readonly inFlight = new Set<ServerResponse>();

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly draining: Draining,
    private readonly config: ConfigService<AllConfig, true>,
  ) {}

  onApplicationBootstrap(): void {
    const server = this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
    if (!server) return;
    this.server = server;
    server.on('connection', (socket: Socket) => {
      this.connections.set(socket, { busy: 0, idleSince: performance.now() });
      socket.once('close', () => {
        this.connections.delete(socket);
        if (this.draining.active) this.draining.report.connectionsClosed += 1;
      });
    });
    // The requests already running answer with `Connection: close` too: marked the moment draining
    // starts (on the signal), not when Nest's shutdown hooks reach this class, so none of them can
    // answer in between and leave its connection open.
    this.draining.onStart(() => {
      for (const res of this.inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
    });
    // Before Express's listener, so the header is set before any handler can answer. One listener
    // function for every response (a response emits 'close' once): no closure per request.
    const closed = (res: ServerResponse) => this.responseClosed(res);
    function responseClosed(this: ServerResponse): void {
      closed(this);
    }
    server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
      this.inFlight.add(res);
      const connection = this.connections.get(req.socket);
      if (connection) connection.busy += 1;
      if (this.draining.active) res.setHeader('Connection', 'close');
      res.on('close', responseClosed);
    });
  }

  private responseClosed(res: ServerResponse): void {
    this.inFlight.delete(res);
    const connection = this.connections.get(res.req.socket);
    if (connection && --connection.busy === 0) connection.idleSince = performance.now();
    if (this.draining.active) this.draining.report.requestsCompleted += 1;
  }

  async beforeApplicationShutdown(): Promise<void> {
    const server = this.server;
    this.draining.markDraining();
    if (!server?.listening) return;
    for (const res of this.inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
    const graceMs = this.config.get('app.shutdownGraceMs', { infer: true });
    const listenMs = Math.min(this.config.get('app.shutdownListenMs', { infer: true }), graceMs);
    let graceTimer: NodeJS.Timeout | undefined;
    const graceOver = new Promise<'grace'>((resolve) => {
      graceTimer = setTimeout(() => resolve('grace'), Math.max(0, graceMs - this.draining.elapsedMs()));
    });
    const listened = new Promise((resolve) => setTimeout(resolve, Math.max(0, listenMs - this.draining.elapsedMs())));
    await Promise.race([listened, graceOver]);

    // Stops accepting without http.Server.close()'s closeIdleConnections(): an "idle" connection
    // may hold a request that is already on its way. `closed` resolves once every connection is gone.
    const closed = new Promise<void>((resolve) => NetServer.prototype.close.call(server, () => resolve()));
    const sweep = setInterval(() => this.closeIdle(listenMs), SWEEP_MS);
    this.closeIdle(listenMs);
    const outcome = await Promise.race([closed, graceOver]);
    clearInterval(sweep);
    if (outcome === 'grace') {
      this.draining.report.requestsCut = this.inFlight.size;
      server.closeAllConnections();
      await closed;
    }
    clearTimeout(graceTimer);
  }

  /** Closes the connections that have carried no request for `idleMs`. */
  private closeIdle(idleMs: number): void {
    const now = performance.now();
    for (const [socket, { busy, idleSince }] of this.connections) {
      if (busy === 0 && now - idleSince >= idleMs) socket.destroy();
    }
  }
}
