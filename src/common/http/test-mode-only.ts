import { type CanActivate, Injectable, UseGuards, applyDecorators } from '@nestjs/common';
import { ClsServiceManager } from 'nestjs-cls';
import type { Principal } from '../context/principal.js';
import { AppError } from '../errors/app-error.js';
import { Errors } from '../errors/error-catalog.js';

/** Runs after the global auth guard, so the principal's mode is known. */
@Injectable()
export class TestModeOnlyGuard implements CanActivate {
  canActivate(): boolean {
    const principal = ClsServiceManager.getClsService().get<Principal | undefined>('principal');
    if (principal?.mode !== 'test') {
      throw new AppError(Errors.E4040, 'Test helpers exist in test mode only (X-Test-Mode: true).');
    }
    return true;
  }
}

/**
 * A test helper: served in test mode only; live mode answers E4040 as if the route did not exist,
 * so nothing in live mode can fake money movement.
 */
export const TestModeOnly = () => applyDecorators(UseGuards(TestModeOnlyGuard));
