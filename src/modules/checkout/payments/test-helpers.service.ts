import { Injectable } from '@nestjs/common';
import { Clock } from '../../../common/clock.js';
import { RequestContext } from '../../../common/context/request-context.js';
import { HoldReleaseService } from '../../ledger/index.js';

/** Later than any `available_on`: "release now" is "release everything held". */
const END_OF_TIME = new Date('9999-12-31T23:59:59Z');

@Injectable()
export class CollectionTestHelpersService {
  constructor(
    private readonly holds: HoldReleaseService,
    private readonly context: RequestContext,
    private readonly clock: Clock,
  ) {}

  /** Releases every held entry of this application's test data now, as the settlement delay would. */
  async releaseHolds() {
    const released = await this.holds.releaseDue(END_OF_TIME, {
      applicationId: this.context.application.id,
      modes: ['test'],
    });
    return { object: 'hold_release' as const, livemode: false, released, released_at: this.clock.now().toISOString() };
  }
}
