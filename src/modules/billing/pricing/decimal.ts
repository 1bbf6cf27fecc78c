/**
 * Exact decimals for percentages: a JSON number such as 7.25 becomes the scaled integer 72500n
 * (4 decimals) through its shortest decimal text, never through float arithmetic.
 */

/** The number's shortest decimal text if it is non-negative with at most `decimals` decimals, else null. */
export function decimalText(value: number, decimals: number): string | null {
  if (!Number.isFinite(value) || value < 0) return null;
  const text = String(value);
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match || (match[2]?.length ?? 0) > decimals) return null;
  return text;
}

/** A decimal text ("7.25", "7.2500", "7") as an integer scaled by 10^decimals (72500n at 4). Throws on anything else. */
export function scaledDecimal(text: string, decimals: number): bigint {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (!match) throw new Error(`not a non-negative decimal: ${text}`);
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (fraction.length > decimals) throw new Error(`${text} has more than ${decimals} decimals`);
  return BigInt(match[1]) * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, '0') || '0');
}
