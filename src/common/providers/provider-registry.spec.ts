import { ProviderRegistry } from './provider-registry.js';

const sandbox = { name: 'sandbox' };
const other = { name: 'other' };

describe('ProviderRegistry', () => {
  it('serves a country by its entry, then by *, and none turns the kind off where allowed', () => {
    const registry = new ProviderRegistry(
      'X_PROVIDERS',
      [sandbox, other],
      { TH: 'other', SG: 'none', '*': 'sandbox' },
      {
        allowNone: true,
      },
    );
    expect(registry.forCountry('TH')).toBe(other);
    expect(registry.forCountry('DE')).toBe(sandbox);
    expect(registry.forCountry(undefined)).toBe(sandbox);
    expect(registry.forCountry('SG')).toBeNull();
    expect(registry.forCountry('constructor')).toBe(sandbox);
    expect(registry.named('other')).toBe(other);
    expect(registry.named('nope')).toBeUndefined();
  });

  it('fails at boot on a name it does not know, or on none where the kind cannot be off', () => {
    expect(() => new ProviderRegistry('X_PROVIDERS', [sandbox], { TH: 'stripe' })).toThrow(
      'X_PROVIDERS names an unknown provider "stripe"',
    );
    expect(() => new ProviderRegistry('X_PROVIDERS', [sandbox], { TH: 'none' })).toThrow('unknown provider "none"');
  });
});
