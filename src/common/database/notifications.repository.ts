import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import pg from 'pg';
import type { DataSource } from 'typeorm';
import { DatabaseEndpoint } from './database-endpoint.js';

/** The one PostgreSQL channel of cache invalidations (payloads say which cache and which key). */
export const INVALIDATION_CHANNEL = 'wallet_cache_invalidation';

export interface NotificationListener {
  /** Settles once the first LISTEN is in place (or failed: reconnection goes on in the background). */
  ready: Promise<void>;
  /** Stops listening and closes the dedicated connection. */
  close(): Promise<void>;
}

/**
 * PostgreSQL LISTEN/NOTIFY for cache invalidation across replicas. `notify` goes through the pool
 * (delivered to every listener when the statement commits); `listen` holds a dedicated connection
 * outside the pool and reconnects after losing it, telling the caller so it can drop what it may
 * have missed. Not available on the embedded PGlite (one backend session multiplexed between
 * connections, so a notification has no listening session to go to): there `supported` is false.
 */
@Injectable()
export class NotificationsRepository {
  private readonly logger = new Logger('CacheInvalidation');

  constructor(
    @InjectDataSource('platform') private readonly db: DataSource,
    private readonly endpoint: DatabaseEndpoint,
  ) {}

  get supported(): boolean {
    return !this.endpoint.isEmbedded;
  }

  async notify(payload: string): Promise<void> {
    await this.db.query('SELECT pg_notify($1, $2)', [INVALIDATION_CHANNEL, payload]);
  }

  /**
   * Listens until closed. `onMessage` gets each payload; `onConnected` runs after every
   * (re)connection that is listening, the first one included.
   */
  listen(onMessage: (payload: string) => void, onConnected: (reconnected: boolean) => void): NotificationListener {
    let closed = false;
    let client: pg.Client | undefined;
    let timer: NodeJS.Timeout | undefined;
    let attempts = 0;
    let everConnected = false;
    let settle: () => void = () => undefined;
    const ready = new Promise<void>((resolve) => (settle = resolve));

    const connect = async (): Promise<void> => {
      if (closed) return;
      const c = new pg.Client({ connectionString: this.endpoint.url, application_name: 'wallet-invalidation' });
      client = c;
      let lost = false;
      const retry = (err?: Error) => {
        if (lost || closed) return;
        lost = true;
        c.removeAllListeners('notification');
        void c.end().catch(() => undefined);
        const delay = Math.min(100 * 2 ** attempts++, 5_000);
        if (err) this.logger.warn(`listening connection lost (${err.message}); reconnecting in ${delay} ms`);
        timer = setTimeout(() => void connect(), delay);
        timer.unref();
      };
      c.on('error', retry);
      c.on('end', () => retry(new Error('connection ended')));
      c.on('notification', (msg) => {
        if (msg.channel === INVALIDATION_CHANNEL && msg.payload !== undefined) onMessage(msg.payload);
      });
      try {
        await c.connect();
        await c.query(`LISTEN ${INVALIDATION_CHANNEL}`);
      } catch (err) {
        retry(err as Error);
        settle();
        return;
      }
      if (closed) {
        await c.end().catch(() => undefined);
        settle();
        return;
      }
      attempts = 0;
      onConnected(everConnected);
      everConnected = true;
      settle();
    };
    void connect();

    return {
      ready,
      close: async () => {
        closed = true;
        if (timer) clearTimeout(timer);
        const c = client;
        client = undefined;
        if (c) {
          c.removeAllListeners();
          c.on('error', () => undefined);
          await c.end().catch(() => undefined);
        }
      },
    };
  }
}
