import { createServer, type Server } from 'node:http';
import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { keepConnectionsOpen } from '../http/keep-alive.js';
import type { AllConfig } from '../../config/app.config.js';
import { Metrics } from './metrics.js';

/**
 * With METRICS_PORT set, `/metrics` has a listener of its own (and the API port answers it 404),
 * so the Service partners reach exposes the API only; Prometheus scrapes the pods on this port.
 * Nothing but `GET /metrics` is served here.
 */
@Injectable()
export class MetricsServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Metrics');
  private server: Server | undefined;

  constructor(
    private readonly metrics: Metrics,
    private readonly config: ConfigService<AllConfig, true>,
  ) {}

  /** The listener, or undefined when off. */
  get listener(): Server | undefined {
    return this.server;
  }

  /** The port it listens on (METRICS_PORT=0 picks a free one), or undefined when off. */
  get port(): number | undefined {
    const address = this.server?.address();
    return address && typeof address === 'object' ? address.port : undefined;
  }

  async onApplicationBootstrap(): Promise<void> {
    const { metricsPort, host, httpKeepAliveTimeoutMs } = this.config.get('app', { infer: true });
    if (metricsPort === undefined) return;
    const server = createServer((req, res) => {
      const path = (req.url ?? '').split('?')[0];
      if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
        res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('not found\n');
        return;
      }
      this.metrics.registry.metrics().then(
        (text) => res.writeHead(200, { 'Content-Type': this.metrics.registry.contentType }).end(text),
        () => res.writeHead(500).end(),
      );
    });
    // The same idle keep-alive as the API port (HTTP_KEEP_ALIVE_TIMEOUT_MS), with headersTimeout above it.
    keepConnectionsOpen(server, httpKeepAliveTimeoutMs);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(metricsPort, host, () => resolve());
    });
    this.server = server;
    this.logger.log(`metrics on port ${this.port}`);
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
