import { mergeMetadata } from './subscription-diff.js';

describe('subscription metadata update', () => {
  it('merges keys and removes those sent empty or null', () => {
    expect(mergeMetadata({ a: '1', b: '2', c: '3' }, { b: '', c: null, d: '4' })).toEqual({ a: '1', d: '4' });
  });

  it('keeps a key named like a prototype member as a plain key', () => {
    const merged = mergeMetadata({}, JSON.parse('{"__proto__": "x", "constructor": "y"}') as Record<string, unknown>);
    expect(Object.keys(merged).sort()).toEqual(['__proto__', 'constructor']);
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
  });
});
