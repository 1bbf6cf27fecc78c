import { randomUUID } from 'node:crypto';
import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { NotificationsRepository, type NotificationListener } from '../database/notifications.repository.js';

/** What a subscriber is told: a key to forget, or `null` to forget everything (messages may have been missed). */
export type InvalidationHandler = (key: string | null) => void;

interface Message {
  /** The sending process, so it does not handle its own message twice. */
  o: string;
  c: string;
  k: string;
}

/**
 * Cache invalidation across replicas. A cache subscribes to a channel (`api_key`, `meter`, …) and
 * forgets the keys published on it; a writer publishes after its write has committed. The message
 * is handled in this process at once and reaches the other replicas through PostgreSQL
 * LISTEN/NOTIFY (typically within milliseconds). After the listening connection was lost and
 * comes back, every subscriber is told to forget everything, since messages may have been missed.
 *
 * On the embedded PGlite there is no LISTEN: invalidation is in-process only and a process sharing
 * the embedded database (e.g. the CLI) is seen by the others after their caches' time to live.
 */
@Injectable()
export class CacheInvalidation implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('CacheInvalidation');
  private readonly origin = randomUUID();
  private readonly handlers = new Map<string, InvalidationHandler[]>();
  private listener: NotificationListener | undefined;

  constructor(private readonly notifications: NotificationsRepository) {}

  subscribe(channel: string, handler: InvalidationHandler): void {
    const list = this.handlers.get(channel) ?? [];
    list.push(handler);
    this.handlers.set(channel, list);
  }

  /**
   * Forgets `key` on `channel` in every replica. Call after the write committed. A failed notify is
   * logged, not thrown: the write stands, and the other replicas see it after their time to live.
   */
  async publish(channel: string, key: string): Promise<void> {
    this.deliver(channel, key);
    if (!this.notifications.supported) return;
    const message: Message = { o: this.origin, c: channel, k: key };
    try {
      await this.notifications.notify(JSON.stringify(message));
    } catch (err) {
      this.logger.warn(`could not notify the other replicas (${(err as Error).message})`);
    }
  }

  /** Listens before the application serves, so a replica that is ready also hears invalidations. */
  async onApplicationBootstrap(): Promise<void> {
    if (!this.notifications.supported) return;
    this.listener = this.notifications.listen(
      (payload) => this.receive(payload),
      (reconnected) => {
        if (!reconnected) return;
        this.logger.log('listening again; forgetting every cached entry that may have missed a message');
        for (const channel of this.handlers.keys()) this.deliver(channel, null);
      },
    );
    await this.listener.ready;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.listener?.close();
  }

  private receive(payload: string): void {
    let message: Message;
    try {
      message = JSON.parse(payload) as Message;
    } catch {
      return;
    }
    if (message.o === this.origin || typeof message.c !== 'string' || typeof message.k !== 'string') return;
    this.deliver(message.c, message.k);
  }

  private deliver(channel: string, key: string | null): void {
    for (const handler of this.handlers.get(channel) ?? []) handler(key);
  }
}
