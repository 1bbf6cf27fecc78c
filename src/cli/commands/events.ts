import { setTimeout as sleep } from 'node:timers/promises';
import { EVENT_TYPES, isEventType } from '../../common/events/event-types.js';
import { type CliArgs, CliUsageError, type RemoteCommand, required } from '../command.js';
import { EventPoller, forward, type ForwardResult, newSessionSecret } from '../remote/listener.js';
import { NOT_TRIGGERABLE, TRIGGERS } from '../remote/triggers.js';
import { WalletApi } from '../remote/wallet-api.js';

const POLL_MS = 1_000;
const CONNECTION = '--base-url https://host/api/v1/{app}/platform/wallet --key sk_test_… [--country TH]';

function api(args: CliArgs): WalletApi {
  try {
    const country = typeof args.country === 'string' ? args.country : 'TH';
    return new WalletApi(required(args, 'base-url'), required(args, 'key'), country);
  } catch (err) {
    throw new CliUsageError((err as Error).message);
  }
}

const line = (f: ForwardResult) => `${f.type} ${f.id} -> ${f.status_code ?? f.error}`;

/** Both need only the deployment's URL and a test secret key: they work against any deployment. */
export const eventCommands: Record<string, RemoteCommand> = {
  'events:listen': {
    usage: `events:listen --forward-to URL ${CONNECTION} [--secret whsec_…] [--json]`,
    async run({ args, print }) {
      const target = required(args, 'forward-to');
      if (!/^https?:\/\//.test(target)) throw new CliUsageError('--forward-to must be an http(s) URL');
      const wallet = api(args);
      const secret = typeof args.secret === 'string' ? args.secret : newSessionSecret();
      const poller = new EventPoller(wallet);
      await poller.start();
      print(
        { ready: true, secret, forward_to: target },
        `Ready: forwarding test-mode events to ${target}, signed with ${secret} (Ctrl-C to stop)`,
      );
      for (;;) {
        const fresh = await poller.poll();
        for (const event of fresh) {
          const sent = await forward(target, secret, event);
          print(sent, line(sent));
        }
        if (fresh.length === 0) await sleep(POLL_MS);
      }
    },
  },
  'events:trigger': {
    usage: `events:trigger TYPE ${CONNECTION} [--json]   (TYPE: ${Object.keys(TRIGGERS).join(', ')})`,
    async run({ args, print }) {
      const type = required(args, 'type');
      if (!isEventType(type))
        throw new CliUsageError(
          `unknown event type "${type}"; the service emits ${Object.keys(EVENT_TYPES).join(', ')}`,
        );
      const recipe = TRIGGERS[type];
      if (!recipe) throw new CliUsageError(`${type} cannot be triggered through the API: ${NOT_TRIGGERABLE[type]}`);
      await recipe(api(args));
      print({ triggered: type }, `triggered ${type} in test mode; see GET /events or events:listen`);
    },
  },
};
