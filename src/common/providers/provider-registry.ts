import { Logger } from '@nestjs/common';
import { AppError } from '../errors/app-error.js';
import { Errors } from '../errors/error-catalog.js';
import { tracedProvider } from '../observability/trace-context.js';

/** The configured name that turns a kind of provider off for a country. */
export const NO_PROVIDER = 'none';

/** What every provider adapter (collection, transfer, billing) has in common. */
export interface NamedProvider {
  readonly name: string;
  /** A sandbox: serves test mode only; a live map naming it fails at boot. */
  readonly testOnly?: boolean;
}

/**
 * A real provider's adapters, one per mode: each mode has its own client and keys (Opn's and
 * Stripe's test and live keys are separate accounts), so the registry picks the adapter of the
 * request's mode. A mode without keys has no adapter; a map naming the provider for that mode
 * fails at boot.
 */
export class PerMode<P extends NamedProvider> {
  constructor(
    readonly name: string,
    readonly test: P | undefined,
    readonly live: P | undefined,
    /** For boot messages: the variable that gives the mode its keys, e.g. `OPN_SECRET_KEY_<MODE>`. */
    readonly keyVariable: string,
  ) {}

  of(livemode: boolean): P | undefined {
    return livemode ? this.live : this.test;
  }
}

/** The two `COUNTRY=name` maps of one kind of provider: test mode's and live mode's. */
export interface ModeMaps {
  test: Record<string, string>;
  live: Record<string, string>;
}

/**
 * Which provider of one kind serves an application country in a mode, from two `COUNTRY=name`
 * maps such as `COLLECTION_PROVIDERS=TH=sandbox,*=sandbox` (test mode, the sandbox by default) and
 * `COLLECTION_PROVIDERS_LIVE=TH=opn,SG=stripe` (live mode, empty by default: `*` for any other
 * country). Unknown names fail at boot, and so does a live map naming a test-only provider (a
 * sandbox), so live mode can never fake money. A live request whose country the live map does not
 * name is refused with E5003 before anything is written. One registry per kind; each module builds
 * its own from its adapters.
 */
export class ProviderRegistry<P extends NamedProvider> {
  /**
   * Test control (in this process, never reachable through configuration or the API): while set,
   * registries built in this process also know `live-double`, the sandbox under another name that
   * may serve live mode, so tests can drive live-mode flows through a configured provider. Only the
   * test harness sets it, around one boot.
   */
  static liveDoublesForTests = false;

  private readonly byName: Map<string, P | PerMode<P>>;
  /** The mode of the work under way (request or job), for `named` without a mode. */
  private readonly currentLivemode: (() => boolean | undefined) | undefined;

  constructor(
    /** `collection`, `transfer` or `billing`: for messages. */
    readonly kind: string,
    /** The configuration variable of the test map (the live one is `<variable>_LIVE`). */
    private readonly variable: string,
    providers: Array<P | PerMode<P>>,
    private readonly maps: ModeMaps,
    options: { allowNone?: boolean; livemode?: () => boolean | undefined } = {},
  ) {
    this.byName = new Map(providers.map((p) => [p.name, p]));
    this.currentLivemode = options.livemode;
    const sandbox = this.byName.get('sandbox');
    if (ProviderRegistry.liveDoublesForTests && sandbox && !(sandbox instanceof PerMode)) {
      const double = Object.create(sandbox, { name: { value: 'live-double' }, testOnly: { value: false } }) as P;
      this.byName.set(double.name, double);
    }
    for (const [mode, map] of Object.entries(maps) as Array<[string, Record<string, string>]>) {
      const name = mode === 'live' ? `${variable}_LIVE` : variable;
      for (const [country, provider] of Object.entries(map)) {
        if (provider === NO_PROVIDER && options.allowNone) continue;
        const entry = this.byName.get(provider);
        if (!entry) throw new Error(`${name} names an unknown ${kind} provider "${provider}" (for ${country})`);
        const known = entry instanceof PerMode ? entry.of(mode === 'live') : entry;
        if (!known && entry instanceof PerMode) {
          throw new Error(
            `${name} names "${provider}" for ${country}, which has no ${mode}-mode keys: set ${entry.keyVariable.replace('<MODE>', mode.toUpperCase())}`,
          );
        }
        if (mode === 'live' && known?.testOnly) {
          throw new Error(
            `${name} names "${provider}" for ${country}: "${provider}" serves test mode only, live mode never uses a sandbox`,
          );
        }
      }
    }
    const logger = new Logger('Providers');
    for (const line of this.describe()) logger.log(line);
  }

  /**
   * The provider for the country (or `*`) in the mode, or null where the map turns this kind off
   * with `none`. A live country the live map does not name is E5003.
   */
  forCountry(country: string | undefined, livemode: boolean): P | null {
    const map = livemode ? this.maps.live : this.maps.test;
    const name =
      (country !== undefined && Object.hasOwn(map, country) ? map[country] : undefined) ??
      map['*'] ??
      (livemode ? undefined : 'sandbox');
    if (name === NO_PROVIDER) return null;
    const provider = name === undefined ? undefined : this.resolve(this.byName.get(name), livemode);
    if (!provider || (livemode && provider.testOnly)) throw this.noLiveProvider(country);
    return tracedProvider(this.kind, provider.name, provider);
  }

  /** Whether live mode has a provider of this kind (or an explicit `none`) for the country. */
  hasLive(country: string | undefined): boolean {
    const map = this.maps.live;
    return (country !== undefined && Object.hasOwn(map, country)) || Object.hasOwn(map, '*');
  }

  /** E5003: live mode has no provider of this kind for the country. */
  noLiveProvider(country: string | undefined): AppError {
    return new AppError(
      Errors.E5003,
      `No live ${this.kind} provider configured for ${country ?? 'this country'} (${this.variable}_LIVE).`,
    );
  }

  /**
   * The provider with that name (a stored reference names the provider that made it), or
   * undefined: for a provider with one adapter per mode, the adapter of `livemode`, by default the
   * mode of the request or job under way (its rows live in that mode's schema).
   */
  named(name: string, livemode?: boolean): P | undefined {
    const entry = this.byName.get(name);
    if (!(entry instanceof PerMode)) return entry && tracedProvider(this.kind, entry.name, entry);
    const mode = livemode ?? this.currentLivemode?.();
    if (mode === undefined) throw new Error(`the ${this.kind} provider "${name}" needs a mode: none is bound`);
    const adapter = entry.of(mode);
    return adapter && tracedProvider(this.kind, adapter.name, adapter);
  }

  /** The adapter of a mode for a configured name (undefined: none). */
  private resolve(entry: P | PerMode<P> | undefined, livemode: boolean): P | undefined {
    return entry instanceof PerMode ? entry.of(livemode) : entry;
  }

  /** One line per mode for the boot log: which provider serves which country. */
  describe(): string[] {
    const line = (mode: 'test' | 'live') => {
      const map = { ...(mode === 'test' ? { '*': 'sandbox' } : {}), ...this.maps[mode] };
      const entries = Object.entries(map).map(([c, p]) => `${c}=${p}`);
      return `${this.kind} providers (${mode}): ${entries.length > 0 ? entries.join(', ') : 'none configured (live requests refused)'}`;
    };
    return [line('test'), line('live')];
  }
}
