import { Injectable } from '@nestjs/common';
import { Clock } from '../../../common/clock.js';
import type { Scope } from '../../../common/context/principal.js';
import { HoldReleaseJob } from '../../ledger/index.js';

/** Later than any `available_on`: "release now" is "release everything held". */
const END_OF_TIME = new Date('9999-12-31T23:59:59Z');

@Injectable()
export class CollectionTestHelpersService {
  constructor(
    private readonly holds: HoldReleaseJob,
    private readonly clock: Clock,
  ) {}

  /** Releases every held entry of this application's test data now, as the settlement delay would. */
  async releaseHolds(scope: Scope) {
    const released = await this.holds.releaseDue(END_OF_TIME, {
      applicationIds: [scope.application.id],
      modes: ['test'],
    });
    return { object: 'hold_release' as const, livemode: false, released, released_at: this.clock.now().toISOString() };
  }
}
