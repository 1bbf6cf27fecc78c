import { Controller, Get, HttpCode, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { AppError } from '../../common/errors/app-error.js';
import { Errors } from '../../common/errors/error-catalog.js';
import { Public } from '../../common/http/decorators.js';
import { Draining } from '../../common/lifecycle/draining.js';
import { HealthRepository } from './health.repository.js';

const READY_TIMEOUT_MS = 2_000;

/**
 * Probes for Kubernetes: liveness never touches the database, readiness does, and turns 503
 * (`{"status": "draining"}`) the moment the process starts shutting down.
 */
@ApiExcludeController()
@Controller()
@Public()
export class HealthController {
  constructor(
    private readonly health: HealthRepository,
    private readonly draining: Draining,
  ) {}

  @Get('healthz')
  @HttpCode(200)
  healthz() {
    return { status: 'ok' };
  }

  @Get('readyz')
  async readyz(@Res({ passthrough: true }) res: Response) {
    if (this.draining.active) {
      res.status(503);
      return { status: 'draining' };
    }
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new AppError(Errors.E5001)), READY_TIMEOUT_MS);
    });
    try {
      await Promise.race([this.health.ping(), timeout]);
      return { status: 'ready' };
    } catch {
      throw new AppError(Errors.E5001);
    } finally {
      clearTimeout(timer);
    }
  }
}
