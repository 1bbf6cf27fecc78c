import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Principal } from '../../common/context/principal.js';

type TestClockCheck = (
  principal: Pick<Principal, 'application' | 'mode'>,
  id: string,
  manager: EntityManager,
) => Promise<void>;

/**
 * A customer may be created on a test clock (`test_clock`), which billing owns: billing supplies
 * the check (test mode, an existing clock that is not advancing) in its `onModuleInit`, so this
 * module imports no billing code. Without a supplier (billing not loaded) `test_clock` is refused.
 */
@Injectable()
export class CustomerTestClocks {
  private check: TestClockCheck | undefined;

  supply(check: TestClockCheck): void {
    this.check = check;
  }

  /** Throws the supplier's catalog error when `id` is no clock the principal may use. */
  async assertUsable(principal: Pick<Principal, 'application' | 'mode'>, id: string, manager: EntityManager) {
    if (!this.check) throw new Error('no test clock supplier is registered (the billing module is not loaded)');
    await this.check(principal, id, manager);
  }
}
