import { hash, randomInt, timingSafeEqual } from 'node:crypto';
import { crc32 } from 'node:zlib';
import type { Mode } from '../../common/context/principal.js';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_CHARS = 32; // 32 base62 characters: ~190 random bits
const PREFIX_CHARS = 12;
const KEY_PATTERN = /^(sk|rk)_(test|live)_([0-9A-Za-z]{32})([0-9A-Za-z]{6})$/;

/** `sk`: a secret key (every permission); `rk`: a restricted key (the permissions it was given). */
export type KeyKind = 'sk' | 'rk';

function base62(value: number, width: number): string {
  let out = '';
  for (let i = 0; i < width; i++) {
    out = ALPHABET[value % 62] + out;
    value = Math.floor(value / 62);
  }
  return out;
}

const checksumOf = (body: string) => base62(crc32(body), 6);

export interface GeneratedKey {
  key: string;
  prefix: string;
  hash: Buffer;
  last4: string;
}

/**
 * Secret keys look like `sk_test_<32 random base62><6 checksum>`, restricted keys `rk_test_…` alike. The checksum (CRC-32 of the
 * rest) lets a typo be refused without a database read; the first 12 random characters are the
 * public lookup prefix; only a SHA-256 of the whole key is stored (the key has far more entropy
 * than a password, so a slow hash buys nothing) and compared in constant time.
 */
export function generateSecretKey(mode: Mode, kind: KeyKind = 'sk'): GeneratedKey {
  let random = '';
  for (let i = 0; i < RANDOM_CHARS; i++) random += ALPHABET[randomInt(62)];
  const body = `${kind}_${mode}_${random}`;
  const key = body + checksumOf(body);
  return {
    key,
    prefix: `${kind}_${mode}_${random.slice(0, PREFIX_CHARS)}`,
    hash: hashSecretKey(key),
    last4: key.slice(-4),
  };
}

export interface ParsedKey {
  kind: KeyKind;
  mode: Mode;
  prefix: string;
  hash: Buffer;
}

/** Null when the string is not a well-formed key with a valid checksum. */
export function parseSecretKey(key: string): ParsedKey | null {
  const match = KEY_PATTERN.exec(key);
  if (!match) return null;
  const [, kind, mode, random, checksum] = match;
  if (checksumOf(`${kind}_${mode}_${random}`) !== checksum) return null;
  return {
    kind: kind as KeyKind,
    mode: mode as Mode,
    prefix: `${kind}_${mode}_${random.slice(0, PREFIX_CHARS)}`,
    hash: hashSecretKey(key),
  };
}

export function hashSecretKey(key: string): Buffer {
  return hash('sha256', key, 'buffer');
}

export function sameHash(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
