/**
 * Integer arithmetic for money: amounts are integers of minor units, computed as BigInt so no
 * intermediate product is ever rounded by a double. Results go back to `number` (every amount the
 * catalog takes is below 2^53).
 */

/** n / d rounded half-up (half away from zero for the non-negative values money takes here); d > 0. */
export function divideHalfUp(n: bigint, d: bigint): bigint {
  if (d <= 0n) throw new Error('divisor must be positive');
  if (n < 0n) return -divideHalfUp(-n, d);
  return (2n * n + d) / (2n * d);
}

/** A non-negative safe integer amount as BigInt; throws on anything else (callers validated their input). */
export function amountOf(value: number, what = 'amount'): bigint {
  if (!Number.isSafeInteger(value) || value < 0)
    throw new Error(`${what} must be a non-negative integer, got ${value}`);
  return BigInt(value);
}

/** Back to a JSON number; throws if the result left the range a double holds exactly. */
export function toAmount(value: bigint): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < -BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new Error(`amount ${value} is beyond 2^53`);
  }
  return Number(value);
}
