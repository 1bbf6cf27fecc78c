import { decimalText, scaledDecimal } from './decimal.js';

describe('decimals', () => {
  it('reads a JSON number as its exact decimal text, refusing too many decimals', () => {
    expect(decimalText(7, 4)).toBe('7');
    expect(decimalText(7.1234, 4)).toBe('7.1234');
    expect(decimalText(7.12345, 4)).toBeNull();
    expect(decimalText(0.1 + 0.2, 4)).toBeNull();
    expect(decimalText(-1, 4)).toBeNull();
    expect(decimalText(1e-7, 4)).toBeNull();
  });

  it('scales a decimal text to an integer', () => {
    expect(scaledDecimal('7', 4)).toBe(70000n);
    expect(scaledDecimal('7.0000', 4)).toBe(70000n);
    expect(scaledDecimal('12.50', 2)).toBe(1250n);
    expect(() => scaledDecimal('1.234', 2)).toThrow();
  });
});
