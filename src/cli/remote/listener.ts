import { createHmac, randomBytes } from 'node:crypto';
import type { Row, WalletApi } from './wallet-api.js';

/**
 * `events:listen` without a database: polls `GET /events` in test mode and forwards each new event,
 * signed as the service signs webhook deliveries (Standard Webhooks: `webhook-id`,
 * `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">` with the
 * base64 key after `whsec_`), with a secret of this session.
 *
 * Why polling: `GET /events` already exists on every deployment, behind the ordinary key, with the
 * list engine's keyset cursor; a streaming endpoint would add a long-lived connection type the
 * ingress, the drain and the rate limiter would all need to learn. The cursor is the event's
 * `created`: each poll asks for events created since the newest one seen less OVERLAP_MS, oldest
 * first, and forgets ids older than that window. An event whose transaction committed a little after
 * a later one (its created_at is earlier) is therefore still picked up, and none is sent twice.
 */
export const OVERLAP_MS = 10_000;
const PAGE = 100;

export interface ListenedEvent extends Row {
  type: string;
  created: string;
}

export interface ForwardResult {
  id: string;
  type: string;
  status_code: number | null;
  error: string | null;
}

export const newSessionSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

/** The Standard Webhooks signature header value for one delivery. */
export function sign(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

export class EventPoller {
  /** id -> created_at (ms) of what was already forwarded within the overlap window. */
  private readonly seen = new Map<string, number>();
  private since = 0;

  constructor(private readonly api: WalletApi) {}

  /**
   * Listening starts after what exists now: the cursor moves to the newest event (by the server's
   * clock, not this machine's) and everything in the overlap window is marked as seen.
   */
  async start(): Promise<void> {
    const newest = await this.api.get<{ data: ListenedEvent[] }>('/events?limit=1');
    this.since = newest.data[0] ? Date.parse(newest.data[0].created) : 0;
    await this.poll();
  }

  /** The events created since the cursor that were not returned before, oldest first. */
  async poll(): Promise<ListenedEvent[]> {
    const from = new Date(this.since - OVERLAP_MS).toISOString();
    const fresh: ListenedEvent[] = [];
    let after: string | null = null;
    for (;;) {
      const query = new URLSearchParams({
        sort: 'created_at:asc',
        limit: String(PAGE),
        'use-cursor': 'true',
        'filter[created][gte]': from,
      });
      if (after) query.set('starting_after', after);
      const page = await this.api.get<{ data: ListenedEvent[]; has_more?: boolean }>(`/events?${query}`);
      for (const event of page.data) {
        if (this.seen.has(event.id)) continue;
        const at = Date.parse(event.created);
        this.seen.set(event.id, at);
        this.since = Math.max(this.since, at);
        fresh.push(event);
      }
      if (!page.has_more || page.data.length === 0) break;
      after = page.data[page.data.length - 1].id;
    }
    for (const [id, at] of this.seen) if (at < this.since - OVERLAP_MS) this.seen.delete(id);
    return fresh;
  }
}

/** POSTs one event to the developer's receiver, signed; never throws. */
export async function forward(url: string, secret: string, event: ListenedEvent): Promise<ForwardResult> {
  const body = JSON.stringify(event);
  const timestamp = Math.floor(Date.now() / 1000);
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'User-Agent': 'wallet-events-listen/2',
        'webhook-id': event.id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': sign(secret, event.id, timestamp, body),
      },
      body,
      signal: AbortSignal.timeout(10_000),
    });
    await res.arrayBuffer();
    return { id: event.id, type: event.type, status_code: res.status, error: null };
  } catch (err) {
    return { id: event.id, type: event.type, status_code: null, error: (err as Error).message };
  }
}
