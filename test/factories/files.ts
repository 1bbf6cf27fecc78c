import { createHash } from 'node:crypto';

/** The largest upload the service accepts (10 MB). */
export const MB10 = 10 * 1024 * 1024;
/** A PNG's signature and the start of its IHDR chunk: what the files API sniffs as image/png. */
export const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);

export const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/**
 * `size` bytes starting with `head`, the rest pseudo-random (xorshift from `seed`), so a round trip
 * checks every byte.
 */
export function sized(head: Buffer, size: number, seed = 2463534242): Buffer {
  const out = Buffer.alloc(size);
  let x = seed;
  for (let i = 0; i < size; i += 1) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  head.copy(out);
  return out;
}
