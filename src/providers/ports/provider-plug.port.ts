import type { Mode } from '../../common/context/principal.js';
import { MODES } from '../../common/tenancy/modes.js';
import type { CollectionProvider } from './collection.port.js';
import type { ConnectProvider } from './connect.port.js';
import type { DisputeProvider } from './dispute.port.js';
import type { TransferProvider } from './transfer.port.js';
import type { SettlementProvider } from './settlement.port.js';
import type { ProviderWebhooks } from './webhook.port.js';

/**
 * Where src/config reads a provider's keys: `<prefix>_<secret>_<MODE>` and
 * `<prefix>_<public>_<MODE>` (or the same with `_FILE`), e.g. OPN_SECRET_KEY_LIVE and
 * OPN_PUBLIC_KEY_LIVE. A mode has keys only with both; a key of the wrong format fails the boot.
 */
export interface ProviderKeySpec {
  prefix: string;
  secret: string;
  /** The key the browser script gets (a public or publishable key). */
  public: string;
  /** The secret key's and the public key's formats, per mode (a test key in a live variable is refused). */
  formats: Readonly<Record<Mode, readonly [RegExp, RegExp]>>;
}

/** The secret key's variable of a mode (`OPN_SECRET_KEY_LIVE`), or its pattern with `<MODE>`. */
export const secretKeyVariable = (keys: ProviderKeySpec, mode: Mode | '<MODE>'): string =>
  `${keys.prefix}_${keys.secret}_${mode === '<MODE>' ? mode : mode.toUpperCase()}`;

/** Read from the environment record src/config hands over (the only reader of process.env). */
export type Env = Readonly<Record<string, string | undefined>>;

/** What the service tells a provider's adapters about itself. */
export interface ServiceLinks {
  /** Where the payer's browser comes back from 3-D Secure: `<PUBLIC_URL>/provider_returns/<provider>/<charge id>`. */
  returnUri(chargeId: string): string;
}

/**
 * A provider's adapters, each kind for the modes that have keys. A kind it has is present even
 * when no mode has keys (then empty), so a map naming it for that kind asks for the keys at boot
 * instead of calling it unknown.
 */
export interface PluggedProvider {
  collection?: Partial<Record<Mode, CollectionProvider>>;
  transfer?: Partial<Record<Mode, TransferProvider>>;
  connect?: Partial<Record<Mode, ConnectProvider>>;
  disputes?: Partial<Record<Mode, DisputeProvider>>;
  settlements?: Partial<Record<Mode, SettlementProvider>>;
  webhooks?: ProviderWebhooks;
}

/**
 * A real provider as the service plugs it in (src/providers/plugs.ts lists them): its name in the
 * `COUNTRY=name` maps and in stored rows, where its keys are, how it reads its client settings,
 * and its adapters built on those settings. `S` is its own settings per mode (keys, base URL,
 * deadlines, …).
 */
export interface ProviderPlug<S extends object = object> {
  readonly name: string;
  readonly keys: ProviderKeySpec;
  /**
   * Its client settings for each of `modes` (the modes whose keys src/config found), read from
   * `env` at boot; a mode left out has no client. Throws naming the variable, never its value.
   */
  settings(env: Env, modes: readonly Mode[], service: { publicUrl: string }): Partial<Record<Mode, S>>;
  /** Its adapters, one client per mode that has settings. */
  plug(settings: Partial<Record<Mode, S>>, links: ServiceLinks): PluggedProvider;
}

/** `build` applied to each mode that has a value (test first), e.g. a client per mode's settings. */
export function perMode<A, B>(
  values: Partial<Record<Mode, A>>,
  build: (value: A, mode: Mode) => B,
): Partial<Record<Mode, B>> {
  const out: Partial<Record<Mode, B>> = {};
  for (const mode of MODES) {
    const value = values[mode];
    if (value !== undefined) out[mode] = build(value, mode);
  }
  return out;
}

/** `read` for each of `modes`, keeping the modes it answers settings for. */
export function settingsPerMode<S>(modes: readonly Mode[], read: (mode: Mode) => S | null): Partial<Record<Mode, S>> {
  const out: Partial<Record<Mode, S>> = {};
  for (const mode of modes) {
    const settings = read(mode);
    if (settings) out[mode] = settings;
  }
  return out;
}
