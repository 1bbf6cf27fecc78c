import { setTimeout as sleep } from 'node:timers/promises';
import { EVENT_TYPES, isEventType } from '../../common/events/event-types.js';
import { CLI_VARIABLES, loadCliConnection } from '../../config/cli.config.js';
import { type CliArgs, CliUsageError, type RemoteCommand, required } from '../command.js';
import { EventPoller, forward, type ForwardResult, newSessionSecret } from '../remote/listener.js';
import { NOT_TRIGGERABLE, TRIGGERS } from '../remote/triggers.js';
import { WalletApi } from '../remote/wallet-api.js';

const POLL_MS = 1_000;
const CONNECTION = `[--base-url URL | ${CLI_VARIABLES.baseUrl}] [--key sk_test_… | ${CLI_VARIABLES.key}] [--country TH]`;

/** A flag, else its environment variable; neither is a usage error naming both. */
function flagOrEnv(args: CliArgs, flag: string, fromEnv: string | undefined, variable: string): string {
  const value = args[flag];
  if (typeof value === 'string' && value !== '') return value;
  if (value === undefined && fromEnv !== undefined) return fromEnv;
  throw new CliUsageError(`--${flag} or ${variable} is required`);
}

/**
 * The deployment to talk to: `--base-url` / `--key`, else WALLET_API_URL / WALLET_API_KEY. A key
 * given as a flag works, with a warning on stderr: the command line is visible to other users of
 * the machine (`ps`) and stays in shell history.
 */
function api(args: CliArgs, warn: (line: string) => void): WalletApi {
  const env = loadCliConnection();
  const baseUrl = flagOrEnv(args, 'base-url', env.baseUrl, CLI_VARIABLES.baseUrl);
  const key = flagOrEnv(args, 'key', env.key, CLI_VARIABLES.key);
  if (typeof args.key === 'string')
    warn(`warning: a key on the command line is visible in ps and shell history; set ${CLI_VARIABLES.key} instead`);
  try {
    const country = typeof args.country === 'string' ? args.country : 'TH';
    return new WalletApi(baseUrl, key, country);
  } catch (err) {
    throw new CliUsageError((err as Error).message);
  }
}

const line = (f: ForwardResult) => `${f.type} ${f.id} -> ${f.status_code ?? f.error}`;

/** Both need only the deployment's URL and a test secret key: they work against any deployment. */
export const eventCommands: Record<string, RemoteCommand> = {
  'events:listen': {
    usage: `events:listen --forward-to URL ${CONNECTION} [--secret whsec_…] [--json]`,
    async run({ args, print, warn }) {
      const target = required(args, 'forward-to');
      if (!/^https?:\/\//.test(target)) throw new CliUsageError('--forward-to must be an http(s) URL');
      const wallet = api(args, warn);
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
    async run({ args, print, warn }) {
      const type = required(args, 'type');
      if (!isEventType(type))
        throw new CliUsageError(
          `unknown event type "${type}"; the service emits ${Object.keys(EVENT_TYPES).join(', ')}`,
        );
      const recipe = TRIGGERS[type];
      if (!recipe) throw new CliUsageError(`${type} cannot be triggered through the API: ${NOT_TRIGGERABLE[type]}`);
      await recipe(api(args, warn));
      print({ triggered: type }, `triggered ${type} in test mode; see GET /events or events:listen`);
    },
  },
};
