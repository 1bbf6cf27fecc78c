import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Hook } from '../../../common/hooks/hook.js';
import type { TestClock } from './entities/test-clock.entity.js';

/** A test clock being deleted, inside the deleting transaction (its row locked). */
export interface TestClockDeleting {
  clock: TestClock;
  manager: EntityManager;
}

/**
 * Subscriptions depend on test clocks, so a clock tells them through these hooks instead of
 * importing them: on `deleting`, the clock's subscriptions are canceled in the same transaction.
 */
@Injectable()
export class TestClockHooks {
  readonly deleting = new Hook<TestClockDeleting>();
}
