import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Opaque bearer secrets (access and refresh tokens, codes, one-time sessions, client secrets):
 * 32 random bytes in base64url behind a readable prefix. Only the SHA-256 is stored and looked up:
 * with 256 random bits a slow hash buys nothing, and a hash index makes the lookup one read.
 */
export function generateSecret(prefix: string): string {
  return `${prefix}_${randomBytes(32).toString('base64url')}`;
}

export function hashSecret(secret: string): Buffer {
  return hash('sha256', secret, 'buffer');
}

export function sameSecretHash(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
