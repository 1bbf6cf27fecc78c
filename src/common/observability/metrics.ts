import { Controller, Get, Injectable, Res } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ApiExcludeController } from '@nestjs/swagger';
import type { NextFunction, Request, Response } from 'express';
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';
import type { AllConfig } from '../../config/app.config.js';
import { AppError } from '../errors/app-error.js';
import { Errors } from '../errors/error-catalog.js';
import { Public } from '../http/decorators.js';

/** One registry per application instance (tests start several in one process). */
@Injectable()
export class Metrics {
  readonly registry = new Registry();

  readonly requestDuration = new Histogram({
    name: 'wallet_http_request_duration_seconds',
    help: 'HTTP request latency by method, route template and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  });

  readonly errors = new Counter({
    name: 'wallet_http_errors_total',
    help: 'Error responses by status and error code.',
    labelNames: ['status', 'code'] as const,
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'wallet_' });
  }
}

/**
 * Times every request into `wallet_http_request_duration_seconds`; the route label is Express's
 * route template, so ids never become labels. Mounted with `app.use` by createApp rather than as
 * Nest module middleware, which keeps a WeakSet of the requests it has seen (see
 * requestContextMiddleware for why that matters under load).
 */
export function metricsMiddleware(metrics: Metrics): (req: Request, res: Response, next: NextFunction) => void {
  return (req, res, next) => {
    const end = metrics.requestDuration.startTimer();
    res.once('finish', () => {
      const route = (req.route as { path?: string } | undefined)?.path ?? 'unmatched';
      end({ method: req.method, route, status: String(res.statusCode) });
    });
    next();
  };
}

@ApiExcludeController()
@Controller()
@Public()
export class MetricsController {
  private readonly ownPort: boolean;

  constructor(
    private readonly metrics: Metrics,
    config: ConfigService<AllConfig, true>,
  ) {
    this.ownPort = config.get('app.metricsPort', { infer: true }) !== undefined;
  }

  /** On the API port only when METRICS_PORT is unset (see MetricsServer). */
  @Get('metrics')
  scrape(@Res({ passthrough: true }) res: Response): Promise<string> {
    if (this.ownPort) throw new AppError(Errors.E4040);
    res.setHeader('Content-Type', 'text/plain; version=0.0.4; charset=utf-8');
    return this.metrics.registry.metrics();
  }
}
