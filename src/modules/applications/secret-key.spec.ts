import { generateSecretKey, parseSecretKey, sameHash } from './secret-key.js';

describe('secret keys', () => {
  it('generates keys of the mode with a verifiable checksum', () => {
    const generated = generateSecretKey('test');
    expect(generated.key).toMatch(/^sk_test_[0-9A-Za-z]{38}$/);
    const parsed = parseSecretKey(generated.key);
    expect(parsed).not.toBeNull();
    expect(parsed!.mode).toBe('test');
    expect(parsed!.prefix).toBe(generated.prefix);
    expect(sameHash(parsed!.hash, generated.hash)).toBe(true);
  });

  it('generates restricted keys that parse as restricted, with a prefix of their own kind', () => {
    const generated = generateSecretKey('live', 'rk');
    expect(generated.key).toMatch(/^rk_live_[0-9A-Za-z]{38}$/);
    expect(generated.prefix).toMatch(/^rk_live_/);
    const parsed = parseSecretKey(generated.key);
    expect({ kind: parsed?.kind, mode: parsed?.mode, prefix: parsed?.prefix }).toEqual({
      kind: 'rk',
      mode: 'live',
      prefix: generated.prefix,
    });
  });

  it('refuses a restricted key whose kind was changed to a secret key (the checksum covers it)', () => {
    const { key } = generateSecretKey('test', 'rk');
    expect(parseSecretKey('sk' + key.slice(2))).toBeNull();
  });

  it('refuses a key with one character changed', () => {
    const { key } = generateSecretKey('live');
    const i = 12;
    const changed = key.slice(0, i) + (key[i] === 'a' ? 'b' : 'a') + key.slice(i + 1);
    expect(parseSecretKey(changed)).toBeNull();
  });

  it('never generates the same key twice', () => {
    const keys = new Set(Array.from({ length: 1000 }, () => generateSecretKey('test').key));
    expect(keys.size).toBe(1000);
  });

  it('refuses strings that are not keys', () => {
    for (const s of ['', 'sk_test_', 'pk_test_abc', 'sk_prod_' + 'a'.repeat(38), "sk_test_' OR 1=1 --"]) {
      expect(parseSecretKey(s)).toBeNull();
    }
  });
});
