import type { Mode } from '../context/principal.js';

/** Both data modes, test first: the order every job and lookup walks them in. */
export const MODES: readonly Mode[] = ['test', 'live'];

/**
 * Runs `work` once per mode (both, or the ones a job scope names), one after the other, and
 * returns the results in the same order.
 */
export async function forEachMode<T>(work: (mode: Mode) => Promise<T>, modes: readonly Mode[] = MODES): Promise<T[]> {
  const results: T[] = [];
  for (const mode of modes) results.push(await work(mode));
  return results;
}
