import { Injectable } from '@nestjs/common';
import { Webhook } from 'standardwebhooks';
import { Clock } from '../../common/clock.js';
import { RequestContext } from '../../common/context/request-context.js';
import { EventsRepository } from './events.repository.js';
import { toEventResponse } from './events.responses.js';
import { parseWebhookUrl } from './webhook-url.js';
import { postWebhook } from './webhook-sender.js';

export interface Forwarded {
  id: string;
  type: string;
  status_code: number | null;
  error: string | null;
}

/**
 * `npm run cli -- events:listen`: a developer's receiver gets the application's new test-mode
 * events, signed with a secret of the listening session (like `stripe listen`), without
 * registering a webhook endpoint. Test mode only; no delivery is recorded. Private targets are
 * always allowed here: the operator running the command chose the address (usually localhost).
 */
@Injectable()
export class EventListenerService {
  constructor(
    private readonly events: EventsRepository,
    private readonly context: RequestContext,
    private readonly clock: Clock,
  ) {}

  /** Where listening starts: after the newest event now. */
  newestId(applicationId: string): Promise<string | null> {
    return this.context.runInMode('test', () => this.events.newestId(applicationId));
  }

  /** Forwards, signed, the test-mode events after `afterId`, oldest first; returns what was sent. */
  async forward(applicationId: string, afterId: string | null, url: string, secret: string): Promise<Forwarded[]> {
    const target = parseWebhookUrl(url, 'test', 'private').toString();
    const batch = await this.context.runInMode('test', () => this.events.after(applicationId, afterId, 100));
    const signer = new Webhook(secret);
    const sent: Forwarded[] = [];
    for (const event of batch) {
      const payload = JSON.stringify(toEventResponse(event));
      const at = this.clock.now();
      const result = await postWebhook(
        target,
        payload,
        {
          'user-agent': 'wallet-events-listen/1',
          'webhook-id': event.id,
          'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
          'webhook-signature': signer.sign(event.id, at, payload),
        },
        'private',
      );
      sent.push({ id: event.id, type: event.type, status_code: result.statusCode, error: result.error });
    }
    return sent;
  }
}
