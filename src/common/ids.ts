import { randomFillSync } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';

/**
 * Random bytes for ids come from a pool refilled 4 KiB at a time: one CSPRNG call per 256 ids
 * instead of one (through WebCrypto's getRandomValues) per id, which showed in the request profile.
 */
const POOL_BYTES = 4096;
const pool = new Uint8Array(POOL_BYTES);
let used = POOL_BYTES;

function random16(): Uint8Array {
  if (used + 16 > POOL_BYTES) {
    randomFillSync(pool);
    used = 0;
  }
  // A copy, so no id ever shares bytes with a later refill of the pool.
  const bytes = pool.slice(used, used + 16);
  used += 16;
  return bytes;
}

/** uuid's own RFC 9562 monotonic counter, kept here because random bytes are passed in. */
const state = { msecs: -Infinity, seq: 0 };

/** Ids are UUIDv7: time-ordered, so inserts are index-local and id is a natural keyset tie-breaker. */
export const newId = (): string => {
  const random = random16();
  const now = Date.now();
  if (now > state.msecs) {
    state.seq = ((random[6] & 0x7f) << 24) | (random[7] << 16) | (random[8] << 8) | random[9];
    state.msecs = now;
  } else {
    state.seq = (state.seq + 1) | 0;
    if (state.seq === 0) state.msecs++;
  }
  return uuidv7({ random, msecs: state.msecs, seq: state.seq });
};

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID_PATTERN.test(value);
