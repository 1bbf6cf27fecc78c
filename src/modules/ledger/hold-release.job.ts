import { Injectable } from '@nestjs/common';
import { EventRecorder } from '../../common/events/event-recorder.js';
import type { JobScope } from '../../common/jobs/job-scope.js';
import { PeriodicJob } from '../../common/jobs/periodic-job.js';
import { HoldsRepository } from './holds.repository.js';
import { LedgerRepository } from './ledger.repository.js';
import { toBalanceResponse } from './ledger.responses.js';
import { PostingService } from './posting.service.js';

const INTERVAL_MS = 10_000;
const BATCH = 200;

/**
 * Releases held funds when their `available_on` has come: for every due hold entry, a journal of
 * two entries on the same balance (-amount hold, +amount available). Safe with several replicas:
 * each batch claims its queue rows with FOR UPDATE SKIP LOCKED and deletes them in the same
 * transaction as the release postings.
 */
@Injectable()
export class HoldReleaseJob extends PeriodicJob {
  constructor(
    private readonly holds: HoldsRepository,
    private readonly posting: PostingService,
    private readonly ledger: LedgerRepository,
    private readonly events: EventRecorder,
  ) {
    super(INTERVAL_MS);
  }

  protected runOnce(): Promise<unknown> {
    return this.releaseDue(this.clock.now());
  }

  /**
   * Releases every hold due at `now` in the scope (everything when unscoped; the test helper that
   * releases funds early names its application and mode); returns how many entries were released.
   */
  async releaseDue(now: Date, scope: JobScope = {}): Promise<number> {
    const released = await this.eachScopedMode(scope, () =>
      this.untilDrained(BATCH, () => this.releaseBatch(now, scope)),
    );
    return released.reduce((sum, n) => sum + n, 0);
  }

  private releaseBatch(now: Date, scope: JobScope): Promise<number> {
    return this.holds.transaction(async (manager) => {
      const due = await this.holds.claimDue(manager, now, scope.applicationIds ?? null, BATCH);
      // Out of the queue first, so the release postings below do not shrink their own rows.
      await this.holds.remove(
        manager,
        due.map((d) => d.entry_id),
      );
      // Balance by balance in id order: replicas releasing other rows of the same balances lock them in one order.
      const ordered = [...due].sort(
        (a, b) => a.balance_id.localeCompare(b.balance_id) || a.entry_id.localeCompare(b.entry_id),
      );
      for (const hold of ordered) {
        // Never more than the hold has: a refund racing this claim could not shrink the claimed row.
        const held = await this.holds.lockedHold(manager, hold.application_id, hold.balance_id);
        const amount = Math.min(Number(hold.amount), held);
        if (amount <= 0) continue;
        const common = { balance_id: hold.balance_id, currency: hold.currency, type: hold.type, source: hold.source };
        await this.posting.post(
          {
            application_id: hold.application_id,
            description: 'Held funds released',
            event_type: 'hold_release',
            event_id: hold.entry_id,
            entries: [
              {
                ...common,
                amount: -amount,
                state: 'hold',
                parent_event_type: hold.event_type,
                parent_event_id: hold.event_id,
              },
              {
                ...common,
                amount,
                state: 'available',
                parent_event_type: hold.event_type,
                parent_event_id: hold.event_id,
              },
            ],
          },
          manager,
        );
      }
      // One balance.available per balance that received funds, as it stands after the batch.
      for (const [balanceId, applicationId] of new Map(due.map((d) => [d.balance_id, d.application_id]))) {
        const balance = await this.ledger.findBalance(applicationId, balanceId, manager);
        if (balance) {
          await this.events.record(manager, {
            applicationId,
            type: 'balance.available',
            object: toBalanceResponse(balance, null),
          });
        }
      }
      return due.length;
    });
  }
}
