import type { Mode } from '../context/principal.js';
import { MODES } from './modes.js';

/**
 * The first record `find` finds, asking test then live, or null. For callers that hold an id but
 * no credential (hosted pages, provider returns): ids are UUIDv7, unique across both schemas, so
 * at most one mode has it.
 */
export async function findInEitherMode<T>(find: (mode: Mode) => Promise<T | null>): Promise<T | null> {
  for (const mode of MODES) {
    const found = await find(mode);
    if (found !== null) return found;
  }
  return null;
}
