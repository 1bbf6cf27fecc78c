import { AppError } from '../errors/app-error.js';
import { PerMode, ProviderRegistry } from './provider-registry.js';

const sandbox = { name: 'sandbox', testOnly: true };
const other = { name: 'other' };

describe('ProviderRegistry', () => {
  it('serves a country by its entry, then by *, and none turns the kind off where allowed (test mode)', () => {
    const registry = new ProviderRegistry(
      'x',
      'X_PROVIDERS',
      [sandbox, other],
      { test: { TH: 'other', SG: 'none', '*': 'sandbox' }, live: {} },
      { allowNone: true },
    );
    expect(registry.forCountry('TH', false)).toBe(other);
    expect(registry.forCountry('DE', false)).toBe(sandbox);
    expect(registry.forCountry(undefined, false)).toBe(sandbox);
    expect(registry.forCountry('SG', false)).toBeNull();
    expect(registry.forCountry('constructor', false)).toBe(sandbox);
    expect(registry.named('other')).toBe(other);
    expect(registry.named('nope')).toBeUndefined();
  });

  it('test mode defaults to the sandbox; live mode has no default and refuses with E5003', () => {
    const registry = new ProviderRegistry('collection', 'X_PROVIDERS', [sandbox, other], {
      test: {},
      live: { SG: 'other' },
    });
    expect(registry.forCountry('TH', false)).toBe(sandbox);
    expect(registry.forCountry('SG', true)).toBe(other);
    expect(registry.hasLive('SG')).toBe(true);
    expect(registry.hasLive('TH')).toBe(false);
    let error: unknown;
    try {
      registry.forCountry('TH', true);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).definition.code).toBe('E5003');
    expect((error as AppError).message).toContain('No live collection provider configured for TH');
    expect(registry.describe()).toEqual([
      'collection providers (test): *=sandbox',
      'collection providers (live): SG=other',
    ]);
  });

  it('fails at boot on a name it does not know, on none where the kind cannot be off, and on a sandbox in live', () => {
    expect(() => new ProviderRegistry('x', 'X_PROVIDERS', [sandbox], { test: { TH: 'stripe' }, live: {} })).toThrow(
      'X_PROVIDERS names an unknown x provider "stripe"',
    );
    expect(() => new ProviderRegistry('x', 'X_PROVIDERS', [sandbox], { test: { TH: 'none' }, live: {} })).toThrow(
      'unknown x provider "none"',
    );
    expect(() => new ProviderRegistry('x', 'X_PROVIDERS', [sandbox], { test: {}, live: { '*': 'sandbox' } })).toThrow(
      'X_PROVIDERS_LIVE names "sandbox" for *: "sandbox" serves test mode only, live mode never uses a sandbox',
    );
  });

  it('serves a provider with one adapter per mode by the mode: forCountry by its argument, named by the bound mode', () => {
    const opnTest = { name: 'opn' };
    const opnLive = { name: 'opn' };
    let bound: boolean | undefined;
    const registry = new ProviderRegistry(
      'collection',
      'X_PROVIDERS',
      [sandbox, new PerMode('opn', opnTest, opnLive, 'OPN_SECRET_KEY_<MODE>')],
      { test: { TH: 'opn' }, live: { TH: 'opn' } },
      { livemode: () => bound },
    );
    expect(registry.forCountry('TH', false)).toBe(opnTest);
    expect(registry.forCountry('TH', true)).toBe(opnLive);
    expect(registry.named('opn', true)).toBe(opnLive);
    bound = false;
    expect(registry.named('opn')).toBe(opnTest);
    bound = true;
    expect(registry.named('opn')).toBe(opnLive);
    bound = undefined;
    expect(() => registry.named('opn')).toThrow('needs a mode');
    expect(registry.named('sandbox')).toBe(sandbox);
  });

  it('fails at boot when a map names a per-mode provider for a mode it has no keys for', () => {
    const liveOnly = new PerMode('opn', undefined, { name: 'opn' }, 'OPN_SECRET_KEY_<MODE>');
    expect(
      () => new ProviderRegistry('x', 'X_PROVIDERS', [sandbox, liveOnly], { test: { TH: 'opn' }, live: {} }),
    ).toThrow('X_PROVIDERS names "opn" for TH, which has no test-mode keys: set OPN_SECRET_KEY_TEST');
    expect(
      () => new ProviderRegistry('x', 'X_PROVIDERS', [sandbox, liveOnly], { test: {}, live: { TH: 'opn' } }),
    ).not.toThrow();
    const testOnly = new PerMode('opn', { name: 'opn' }, undefined, 'OPN_SECRET_KEY_<MODE>');
    const registry = new ProviderRegistry('x', 'X_PROVIDERS', [sandbox, testOnly], { test: {}, live: {} });
    expect(() => registry.forCountry('TH', true)).toThrow('No live x provider configured for TH');
  });
});
