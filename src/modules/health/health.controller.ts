import { Controller, Get, HttpCode } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { AppError } from '../../common/errors/app-error.js';
import { Errors } from '../../common/errors/error-catalog.js';
import { Public } from '../../common/http/decorators.js';
import { Draining } from '../../common/lifecycle/draining.js';
import { HealthService } from './health.service.js';

const READY_TIMEOUT_MS = 2_000;

/**
 * Probes for Kubernetes: liveness never touches the database; readiness (E5001, 503, otherwise)
 * needs the database reachable, every migration this build knows applied, and no drain under way.
 */
@ApiExcludeController()
@Controller()
@Public()
export class HealthController {
  constructor(
    private readonly health: HealthService,
    private readonly draining: Draining,
  ) {}

  @Get('healthz')
  @HttpCode(200)
  healthz() {
    return { status: 'ok' };
  }

  @Get('readyz')
  async readyz() {
    if (this.draining.active) throw new AppError(Errors.E5001, 'The service is shutting down.');
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new AppError(Errors.E5001)), READY_TIMEOUT_MS);
    });
    let pending: string[];
    try {
      pending = await Promise.race([this.health.pendingMigrations(), timeout]);
    } catch {
      throw new AppError(Errors.E5001);
    } finally {
      clearTimeout(timer);
    }
    if (pending.length > 0) {
      throw new AppError(Errors.E5001, `The database schema is not migrated: ${pending.length} migration(s) pending.`);
    }
    return { status: 'ready' };
  }
}
