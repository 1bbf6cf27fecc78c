import { MODES } from '../common/tenancy/modes.js';
import { PROVIDER_PLUGS } from '../providers/provider-plugs.js';
import type { ProviderCredentials, ProviderMode } from './provider-credentials.js';

type Env = Record<string, string | undefined>;

const REDACTED = '[redacted provider clients]';

/**
 * The settings of each real provider's client per mode (keys, base URL, deadline, webhook
 * secret, …), by provider name, read at boot from the environment by each plug's own reader
 * (src/providers/<provider>/<provider>.plug.ts). A mode without keys has no client. Prints as
 * `[redacted provider clients]` (JSON and util.inspect): a logged config object never carries a key.
 */
export type ProviderClients = Readonly<Record<string, Readonly<Partial<Record<ProviderMode, object>>>>>;

/**
 * Builds the clients' settings for the modes whose keys `loadProviderCredentials` found (so a key
 * is validated once, with its pair). Errors name the variable, never the value.
 */
export function loadProviderClients(
  env: Env,
  credentials: ProviderCredentials,
  publicUrl: string,
  fail: (message: string) => Error,
): ProviderClients {
  const clients: Record<string, Partial<Record<ProviderMode, object>>> = {};
  for (const plug of PROVIDER_PLUGS) {
    const modes = MODES.filter((mode) => credentials[plug.name]?.[mode]);
    try {
      clients[plug.name] = plug.settings(env, modes, { publicUrl });
    } catch (err) {
      throw fail((err as Error).message);
    }
  }
  return Object.defineProperties(clients, {
    toJSON: { value: () => REDACTED },
    [Symbol.for('nodejs.util.inspect.custom')]: { value: () => REDACTED },
  });
}
