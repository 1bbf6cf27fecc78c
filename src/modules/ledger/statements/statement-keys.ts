import { generateKeyPairSync } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { calculateJwkThumbprint, importJWK, type CryptoKey } from 'jose';
import { Clock } from '../../../common/clock.js';
import type { AllConfig, StatementSigningKey } from '../../../config/app.config.js';
import { StatementKeysRepository, type StoredSigningKey } from './statement-keys.repository.js';

export type PublicStatementKey = StoredSigningKey['public_jwk'] & { use: 'sig'; alg: 'EdDSA' };

/**
 * The Ed25519 keys that sign balance statements (docs/LEDGER.md, "Keys and rotation"). With
 * STATEMENT_SIGNING_KEYS: those, the first signs. Without: each process makes its own key on its
 * first statement and keeps the private half in memory only; the public half is published
 * (`platform.statement_signing_keys`) before it signs. `rotate()` (`statements:rotate-key`) retires
 * every generated key: each process sees it at its next statement (checked per statement, a rare
 * call) and makes a new key. Every key ever published stays in the JWKS, so what it signed verifies.
 */
@Injectable()
export class StatementKeys {
  private readonly configured: StatementSigningKey[] | undefined;
  /** This process's generated key (no STATEMENT_SIGNING_KEYS). */
  private own: { kid: string; key: CryptoKey } | undefined;

  constructor(
    private readonly keys: StatementKeysRepository,
    private readonly clock: Clock,
    config: ConfigService<AllConfig, true>,
  ) {
    this.configured = config.get('app', { infer: true }).statementSigningKeys;
  }

  /** The key that signs now: the first configured one, else this process's (made, or made again after a rotation). */
  async active(): Promise<{ kid: string; key: CryptoKey }> {
    if (this.configured) {
      const [first] = this.configured;
      return { kid: first.kid, key: (await importJWK(first, 'EdDSA')) as CryptoKey };
    }
    if (this.own && !(await this.keys.retired(this.own.kid))) return this.own;
    const fresh = await newSigningKey();
    await this.keys.add(publicOf(fresh), this.clock.now());
    this.own = { kid: fresh.kid, key: (await importJWK(fresh, 'EdDSA')) as CryptoKey };
    return this.own;
  }

  /** The public JWKS: the configured keys in their order, then every generated key (still signing first). */
  async published(): Promise<{ keys: PublicStatementKey[] }> {
    const all = [...(this.configured ?? []).map(publicOf), ...(await this.keys.all()).map((k) => k.public_jwk)];
    const seen = new Set<string>();
    const keys = all.filter((k) => !seen.has(k.kid) && seen.add(k.kid));
    return { keys: keys.map((k) => ({ ...publicOf(k), use: 'sig', alg: 'EdDSA' })) };
  }

  /** Retires every generated key (each process makes a new one at its next statement). Refused when the keys come from the environment. */
  async rotate(): Promise<{ retired: string[] }> {
    if (this.configured) {
      throw new Error('STATEMENT_SIGNING_KEYS is set: rotate by putting a new key first in it (docs/LEDGER.md)');
    }
    return { retired: await this.keys.retireAll(this.clock.now()) };
  }
}

/** A new Ed25519 key as a private JWK; its kid is its RFC 7638 thumbprint. */
export async function newSigningKey(): Promise<StatementSigningKey> {
  const jwk = generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' }) as { x: string; d: string };
  const kid = await calculateJwkThumbprint({ kty: 'OKP', crv: 'Ed25519', x: jwk.x });
  return { kty: 'OKP', crv: 'Ed25519', kid, x: jwk.x, d: jwk.d };
}

function publicOf(key: { kid: string; x: string }): StoredSigningKey['public_jwk'] {
  return { kty: 'OKP', crv: 'Ed25519', kid: key.kid, x: key.x };
}
