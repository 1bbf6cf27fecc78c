import { EventSubscriber, type EntitySubscriberInterface, type InsertEvent } from 'typeorm';

/**
 * Every per-mode entity extends this. `livemode` is no column: the DataSource that loaded or
 * inserted the row stamps it, so a record says which schema it came from by construction.
 */
export abstract class ModeRecord {
  livemode: boolean;
}

function livemodeSubscriber(live: boolean) {
  // TypeORM loads only classes marked @EventSubscriber(); each mode DataSource lists its own one.
  @EventSubscriber()
  class LivemodeSubscriber implements EntitySubscriberInterface<ModeRecord> {
    afterLoad(entity: ModeRecord): void {
      if (entity instanceof ModeRecord) entity.livemode = live;
    }

    afterInsert(event: InsertEvent<ModeRecord>): void {
      if (event.entity instanceof ModeRecord) event.entity.livemode = live;
    }
  }
  return LivemodeSubscriber;
}

export const LiveSubscriber = livemodeSubscriber(true);
export const TestSubscriber = livemodeSubscriber(false);
