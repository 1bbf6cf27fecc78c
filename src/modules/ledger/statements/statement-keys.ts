import { generateKeyPairSync } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { calculateJwkThumbprint, importJWK, type CryptoKey } from 'jose';
import { Clock } from '../../../common/clock.js';
import type { AllConfig, StatementSigningKey } from '../../../config/app.config.js';
import { StatementKeysRepository, type StoredSigningKey } from './statement-keys.repository.js';

export type PublicStatementKey = StoredSigningKey['public_jwk'] & { use: 'sig'; alg: 'EdDSA' };

/**
 * The Ed25519 keys that sign balance statements. With STATEMENT_SIGNING_KEYS: those, the first
 * active. Without: the keys in `platform.statement_signing_keys`, the first generated on first use;
 * `rotate()` (`statements:rotate-key`) retires the active key and makes a new one. Every key, retired
 * or not, stays in the published JWKS so statements it signed still verify. Read on each use (a
 * statement is rare): a rotation in the CLI is seen by every replica at once.
 */
@Injectable()
export class StatementKeys {
  private readonly configured: StatementSigningKey[] | undefined;

  constructor(
    private readonly keys: StatementKeysRepository,
    private readonly clock: Clock,
    config: ConfigService<AllConfig, true>,
  ) {
    this.configured = config.get('app', { infer: true }).statementSigningKeys;
  }

  /** The key that signs now, generated and kept if there is none yet. */
  async active(): Promise<{ kid: string; key: CryptoKey }> {
    let jwk = this.configured?.[0] ?? (await this.stored())[0]?.private_jwk;
    if (!jwk) {
      const fresh = await newSigningKey();
      await this.keys.addFirst(fresh, publicOf(fresh), this.clock.now());
      jwk = (await this.stored())[0].private_jwk;
    }
    return { kid: jwk.kid, key: (await importJWK(jwk, 'EdDSA')) as CryptoKey };
  }

  /** The public JWKS: every key, active first. */
  async published(): Promise<{ keys: PublicStatementKey[] }> {
    const keys = this.configured ?? (await this.stored()).map((k) => k.private_jwk);
    return { keys: keys.map((k) => ({ ...publicOf(k), use: 'sig', alg: 'EdDSA' })) };
  }

  /** Retires the active key; the new one signs from now on. Refused when the keys come from the environment. */
  async rotate(): Promise<{ kid: string; retired: string | null }> {
    if (this.configured) {
      throw new Error('STATEMENT_SIGNING_KEYS is set: rotate by putting a new key first in it (docs/LEDGER.md)');
    }
    const before = (await this.stored()).find((k) => k.retired_at === null)?.kid ?? null;
    const fresh = await newSigningKey();
    await this.keys.rotate(fresh, publicOf(fresh), this.clock.now());
    return { kid: fresh.kid, retired: before };
  }

  private stored(): Promise<StoredSigningKey[]> {
    return this.keys.all();
  }
}

/** A new Ed25519 key as a private JWK; its kid is its RFC 7638 thumbprint. */
export async function newSigningKey(): Promise<StatementSigningKey> {
  const jwk = generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' }) as { x: string; d: string };
  const kid = await calculateJwkThumbprint({ kty: 'OKP', crv: 'Ed25519', x: jwk.x });
  return { kty: 'OKP', crv: 'Ed25519', kid, x: jwk.x, d: jwk.d };
}

function publicOf(key: StatementSigningKey): StoredSigningKey['public_jwk'] {
  return { kty: 'OKP', crv: 'Ed25519', kid: key.kid, x: key.x };
}
