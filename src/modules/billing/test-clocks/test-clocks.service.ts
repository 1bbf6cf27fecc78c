import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../../common/clock.js';
import type { Principal } from '../../../common/context/principal.js';
import { AppError } from '../../../common/errors/app-error.js';
import { Errors } from '../../../common/errors/error-catalog.js';
import { EventRecorder } from '../../../common/events/event-recorder.js';
import { newId } from '../../../common/ids.js';
import type { JobScope } from '../../../common/jobs/job-scope.js';
import { ListFilters, runList, type ListEnvelope, type ListQuery, type ListSpec } from '../../../common/list/index.js';
import { CustomersService } from '../../customers/index.js';
import type { AdvanceTestClockDto, CreateTestClockDto } from './dto/test-clock.dto.js';
import type { TestClock } from './entities/test-clock.entity.js';
import { TestClockHooks } from './test-clock-hooks.js';
import { TestClockErrors } from './test-clocks.errors.js';
import { TestClocksRepository } from './test-clocks.repository.js';
import { toTestClockResponse, type TestClockResponse } from './test-clocks.responses.js';

export const TEST_CLOCK_LIST: ListSpec = {
  filters: {
    id: ListFilters.uuid,
    status: ListFilters.oneOf(['ready', 'advancing']),
    created_at: ListFilters.timestamp,
  },
  sortable: ['created_at'],
  search: ['id', 'name'],
};

/** How far one advance may move a clock (docs/BILLING.md, "Test clocks"). */
export const MAX_ADVANCE_YEARS = 2;

@Injectable()
export class TestClocksService {
  constructor(
    private readonly clocks: TestClocksRepository,
    private readonly customers: CustomersService,
    private readonly hooks: TestClockHooks,
    private readonly events: EventRecorder,
    private readonly clock: Clock,
  ) {}

  async create(principal: Principal, dto: CreateTestClockDto): Promise<TestClockResponse> {
    const now = this.clock.now();
    const created = await this.clocks.transaction(async (manager) => {
      const inserted = await this.clocks.insert(
        {
          id: newId(),
          application_id: principal.application.id,
          name: dto.name ?? null,
          frozen_time: new Date(dto.frozen_time),
          target_frozen_time: null,
          status: 'ready',
          created_at: now,
          updated_at: now,
        } as TestClock,
        manager,
      );
      await this.record(manager, 'test_helpers.test_clock.created', inserted);
      return inserted;
    });
    return toTestClockResponse(created);
  }

  async retrieve(principal: Principal, id: string): Promise<TestClockResponse> {
    return toTestClockResponse(await this.get(principal.application.id, id));
  }

  list(principal: Principal, query: ListQuery): Promise<ListEnvelope<TestClockResponse>> {
    return runList(this.clocks.query(principal.application.id), TEST_CLOCK_LIST, query, toTestClockResponse);
  }

  /**
   * Starts moving the clock to `frozen_time`: the clock answers `advancing` at once and the
   * subscriptions job (SubscriptionsJob) moves its customers' subscriptions through every step due
   * up to that time, in order, then marks it `ready`.
   */
  async advance(principal: Principal, id: string, dto: AdvanceTestClockDto): Promise<TestClockResponse> {
    const target = new Date(dto.frozen_time);
    const advanced = await this.clocks.transaction(async (manager) => {
      const found = await this.clocks.find(principal.application.id, id, manager, true);
      if (!found) throw new AppError(Errors.E4004, `No test clock with id "${id}".`);
      if (found.status === 'advancing')
        throw new AppError(TestClockErrors.E7702, `Test clock "${id}" is advancing; wait until it is ready.`);
      if (target <= found.frozen_time)
        throw new AppError(
          TestClockErrors.E7700,
          `frozen_time must be after the clock's frozen_time (${found.frozen_time.toISOString()}).`,
        );
      const limit = new Date(found.frozen_time);
      limit.setUTCFullYear(limit.getUTCFullYear() + MAX_ADVANCE_YEARS);
      if (target > limit)
        throw new AppError(
          TestClockErrors.E7701,
          `frozen_time may be at most ${limit.toISOString()} (two years ahead).`,
        );
      const updated = await this.clocks.update(
        found.application_id,
        found.id,
        { status: 'advancing', target_frozen_time: target, updated_at: this.clock.now() },
        manager,
      );
      await this.record(manager, 'test_helpers.test_clock.advancing', updated);
      return updated;
    });
    return toTestClockResponse(advanced);
  }

  /**
   * Deletes the clock. Money records are never deleted: its customers' subscriptions are canceled
   * (as of the clock's frozen_time) and its customers are detached (they live on the service clock
   * from then on), in the same transaction.
   */
  async delete(principal: Principal, id: string): Promise<{ id: string; object: string; deleted: true }> {
    await this.clocks.transaction(async (manager) => {
      const found = await this.clocks.find(principal.application.id, id, manager, true);
      if (!found) throw new AppError(Errors.E4004, `No test clock with id "${id}".`);
      await this.hooks.deleting.emit({ clock: found, manager });
      await this.customers.detachTestClock(found.application_id, found.id, manager);
      await this.clocks.delete(found.application_id, found.id, manager);
      await this.record(manager, 'test_helpers.test_clock.deleted', found);
    });
    return { id, object: 'test_helpers.test_clock', deleted: true };
  }

  /**
   * For customers: the clock `id` a new customer of the principal's application may live on:
   * test mode only (E7704), an existing clock (E7703), not advancing (E7702).
   */
  async assertUsable(principal: Pick<Principal, 'application' | 'mode'>, id: string, manager?: EntityManager) {
    if (principal.mode !== 'test')
      throw new AppError(TestClockErrors.E7704, 'test_clock is for test mode only (X-Test-Mode: true).');
    const found = await this.clocks.find(principal.application.id, id, manager);
    if (!found) throw new AppError(TestClockErrors.E7703, `No test clock with id "${id}".`);
    if (found.status === 'advancing')
      throw new AppError(TestClockErrors.E7702, `Test clock "${id}" is advancing; wait until it is ready.`);
  }

  /** The clock of a customer or subscription, locked when `lock`; null once deleted. */
  find(applicationId: string, id: string, manager?: EntityManager, lock = false): Promise<TestClock | null> {
    return this.clocks.find(applicationId, id, manager, lock);
  }

  /** For the subscriptions job: one advancing clock, claimed for `manager`'s transaction. */
  claimAdvancing(manager: EntityManager, scope: JobScope): Promise<TestClock | null> {
    return this.clocks.claimAdvancing(manager, scope);
  }

  /** For the subscriptions job: everything due up to the target is done; the clock is there, `ready`. */
  async finishAdvance(clock: TestClock, manager: EntityManager): Promise<void> {
    const updated = await this.clocks.update(
      clock.application_id,
      clock.id,
      {
        status: 'ready',
        frozen_time: clock.target_frozen_time!,
        target_frozen_time: null,
        updated_at: this.clock.now(),
      },
      manager,
    );
    await this.record(manager, 'test_helpers.test_clock.ready', updated);
  }

  private async get(applicationId: string, id: string): Promise<TestClock> {
    const found = await this.clocks.find(applicationId, id);
    if (!found) throw new AppError(Errors.E4004, `No test clock with id "${id}".`);
    return found;
  }

  private record(
    manager: EntityManager,
    type:
      | 'test_helpers.test_clock.created'
      | 'test_helpers.test_clock.advancing'
      | 'test_helpers.test_clock.ready'
      | 'test_helpers.test_clock.deleted',
    clock: TestClock,
  ): Promise<void> {
    return this.events.record(manager, {
      applicationId: clock.application_id,
      type,
      object: toTestClockResponse(clock),
    });
  }
}
