import { readFileSync } from 'node:fs';
import { MODES } from '../common/tenancy/modes.js';
import { secretKeyVariable } from '../providers/ports/provider-plug.port.js';
import { PROVIDER_PLUGS } from '../providers/provider-plugs.js';

type Env = Record<string, string | undefined>;

/** One provider's keys in one mode. Secret values never reach a log: the object prints as redacted. */
export class ProviderKeys {
  constructor(
    readonly secretKey: string,
    /** The key the browser script gets (Opn public key, Stripe publishable key). */
    readonly publicKey: string,
  ) {}

  toJSON(): string {
    return '[redacted provider keys]';
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return this.toJSON();
  }
}

export type ProviderMode = 'test' | 'live';

/** Keys per provider (src/providers/plugs.ts) and mode; a mode without keys is absent. */
export type ProviderCredentials = Record<string, Partial<Record<ProviderMode, ProviderKeys>>>;

/**
 * `NAME` from the environment, or the content of the file `NAME_FILE` names (a mounted Kubernetes
 * Secret), trimmed. Both set, an unreadable or empty file: a boot error naming the variable, never
 * the value.
 */
export function secretValue(env: Env, name: string, fail: (message: string) => Error): string | undefined {
  const direct = env[name];
  const file = env[`${name}_FILE`];
  if (direct && file) throw fail(`set ${name} or ${name}_FILE, not both`);
  if (file) {
    let content: string;
    try {
      content = readFileSync(file, 'utf8').trim();
    } catch {
      throw fail(`${name}_FILE names a file that cannot be read: ${file}`);
    }
    if (!content) throw fail(`${name}_FILE names an empty file: ${file}`);
    return content;
  }
  return direct || undefined;
}

/**
 * Reads and validates every provider's keys at boot: `<PROVIDER>_<KEY>_<MODE>` or its `_FILE`
 * (e.g. OPN_SECRET_KEY_LIVE or OPN_SECRET_KEY_LIVE_FILE). A secret without its public key (or the
 * reverse), a key of the wrong mode (a test key in a live variable) or of another format fails
 * the boot, and the message never contains the value.
 */
export function loadProviderCredentials(env: Env, fail: (message: string) => Error): ProviderCredentials {
  const out: ProviderCredentials = {};
  for (const { name, keys } of PROVIDER_PLUGS) {
    out[name] = {};
    for (const mode of MODES) {
      const suffix = mode.toUpperCase();
      const secretName = secretKeyVariable(keys, mode);
      const publicName = `${keys.prefix}_${keys.public}_${suffix}`;
      const secret = secretValue(env, secretName, fail);
      const publicKey = secretValue(env, publicName, fail);
      if (!secret && !publicKey) continue;
      if (!secret || !publicKey)
        throw fail(`${secret ? publicName : secretName} is required with ${secret ? secretName : publicName}`);
      const [secretFormat, publicFormat] = keys.formats[mode];
      if (!secretFormat.test(secret))
        throw fail(`${secretName} is not a ${name} ${mode}-mode secret key (value not shown)`);
      if (!publicFormat.test(publicKey))
        throw fail(`${publicName} is not a ${name} ${mode}-mode public key (value not shown)`);
      out[name][mode] = new ProviderKeys(secret, publicKey);
    }
  }
  return out;
}
