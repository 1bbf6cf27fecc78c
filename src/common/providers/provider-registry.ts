/** The configured name that turns a kind of provider off for a country. */
export const NO_PROVIDER = 'none';

/** What every provider adapter (collection, transfer, billing) has in common. */
export interface NamedProvider {
  readonly name: string;
}

/**
 * Which provider of one kind serves an application country, from a `COUNTRY=name` map such as
 * `COLLECTION_PROVIDERS=TH=sandbox,*=sandbox` (`*` for any other country). Unknown names fail at boot,
 * so a typo never reaches a request. One registry per kind; each module builds its own from its
 * adapters (`new ProviderRegistry('COLLECTION_PROVIDERS', [sandbox], config…)`).
 */
export class ProviderRegistry<P extends NamedProvider> {
  private readonly byName: Map<string, P>;

  constructor(
    /** The configuration variable the map comes from, for messages. */
    variable: string,
    providers: P[],
    private readonly byCountry: Record<string, string>,
    private readonly options: { allowNone?: boolean; fallback?: string } = {},
  ) {
    this.byName = new Map(providers.map((p) => [p.name, p]));
    for (const name of Object.values(byCountry)) {
      if (name === NO_PROVIDER && options.allowNone) continue;
      if (!this.byName.has(name)) throw new Error(`${variable} names an unknown provider "${name}"`);
    }
  }

  /** The provider for the country (or `*`), or null where the map turns this kind off with `none`. */
  forCountry(country: string | undefined): P | null {
    const name =
      (country !== undefined && Object.hasOwn(this.byCountry, country) ? this.byCountry[country] : undefined) ??
      this.byCountry['*'] ??
      this.options.fallback ??
      'sandbox';
    if (name === NO_PROVIDER) return null;
    return this.byName.get(name) ?? null;
  }

  /** The provider with that name (a stored reference names the provider that made it), or undefined. */
  named(name: string): P | undefined {
    return this.byName.get(name);
  }
}
