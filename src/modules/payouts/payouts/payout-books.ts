import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { EventRecorder } from '../../../common/events/event-recorder.js';
import type { EventType } from '../../../common/events/event-types.js';
import { BalancesService, PostingService, type PostingEntry } from '../../ledger/index.js';
import type { Payout } from '../entities/payout.entity.js';
import { toPayoutResponse } from './payouts.responses.js';

/**
 * What every payout change writes besides its row (docs/PAYOUTS.md, "Ledger"): its journal, where
 * every entry is available and carries the payout as its `transfer`, and its event. Shared by the
 * creation (PayoutsService) and the transitions (PayoutLifecycleService).
 */
@Injectable()
export class PayoutBooks {
  constructor(
    private readonly balances: BalancesService,
    private readonly posting: PostingService,
    private readonly events: EventRecorder,
  ) {}

  /** The application's `payouts_in_transit` balance in `currency` (one per application and currency). */
  async inTransitBalance(applicationId: string, currency: string, manager: EntityManager): Promise<string> {
    const balance = await this.balances.getOrCreate(
      { application_id: applicationId, account: 'payouts_in_transit', currency },
      manager,
    );
    return balance.id;
  }

  /** A payout journal: every entry available, carrying the payout as its `transfer`. */
  async post(
    payout: Payout,
    eventType: string,
    entries: Array<Pick<PostingEntry, 'balance_id' | 'amount' | 'type' | 'category'>>,
    manager: EntityManager,
  ): Promise<void> {
    await this.posting.post(
      {
        application_id: payout.application_id,
        description: `Payout ${payout.id}`,
        event_type: eventType,
        event_id: payout.id,
        entries: entries.map((e) => ({
          ...e,
          currency: payout.currency,
          state: 'available' as const,
          source: 'payout',
          reporting_category: e.category === 'payout_reversal' ? 'payout_reversal' : 'payout',
          transfer_id: payout.id,
          parent_event_type: 'payout',
          parent_event_id: payout.id,
        })),
      },
      manager,
    );
  }

  record(
    manager: EntityManager,
    type: EventType,
    payout: Payout,
    previous_attributes?: Record<string, unknown>,
  ): Promise<void> {
    return this.events.record(manager, {
      applicationId: payout.application_id,
      type,
      object: toPayoutResponse(payout),
      ...(previous_attributes ? { previous_attributes } : {}),
    });
  }
}
