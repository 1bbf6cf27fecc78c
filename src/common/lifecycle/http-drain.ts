import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { type BeforeApplicationShutdown, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { HttpAdapterHost } from '@nestjs/core';
import type { AllConfig } from '../../config/app.config.js';
import { Draining } from './draining.js';

/**
 * Graceful HTTP drain on shutdown: the listener stops accepting, idle keep-alive connections are
 * closed, every response from then on carries `Connection: close` (so each busy connection closes
 * after its current response), and in-flight requests finish, bounded by `SHUTDOWN_GRACE_MS`;
 * whatever is still open then is cut. Runs in `beforeApplicationShutdown`, so pools close only
 * after the requests that use them are done.
 */
@Injectable()
export class HttpDrain implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
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
      this.sockets.add(socket);
      socket.once('close', () => {
        this.sockets.delete(socket);
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
    server.prependListener('request', (_req: IncomingMessage, res: ServerResponse) => {
      this.inFlight.add(res);
      if (this.draining.active) res.setHeader('Connection', 'close');
      res.on('close', responseClosed);
    });
  }

  private responseClosed(res: ServerResponse): void {
    this.inFlight.delete(res);
    if (!this.draining.active) return;
    this.draining.report.requestsCompleted += 1;
    // A response whose headers went out before the drain left its connection open and idle.
    this.server?.closeIdleConnections();
  }

  async beforeApplicationShutdown(): Promise<void> {
    const server = this.server;
    this.draining.markDraining();
    if (!server?.listening) return;
    for (const res of this.inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    const graceMs = this.config.get('app.shutdownGraceMs', { infer: true });
    let timer: NodeJS.Timeout | undefined;
    const graceOver = new Promise<'grace'>((resolve) => {
      timer = setTimeout(() => resolve('grace'), Math.max(0, graceMs - this.draining.elapsedMs()));
    });
    // Every connection closes after its current response (or at once when idle): `closed`.
    const outcome = await Promise.race([closed, graceOver]);
    if (outcome === 'grace') {
      this.draining.report.requestsCut = this.inFlight.size;
      server.closeAllConnections();
      await closed;
    }
    clearTimeout(timer);
  }
}
