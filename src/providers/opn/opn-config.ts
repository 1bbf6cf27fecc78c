import { readFileSync } from 'node:fs';
import { OPN_API_BASE, OPN_DEFAULT_VERSION, OPN_VAULT_BASE, type OpnClientOptions } from './opn-client.js';

export type OpnMode = 'test' | 'live';

/**
 * Opn settings for one mode from an environment record (src/config passes process.env; this file
 * never reads it itself). `OPN_SECRET_KEY_TEST` / `OPN_SECRET_KEY_LIVE`, or the same names with
 * `_FILE` for a mounted Kubernetes Secret; `OPN_BASE_URL`, `OPN_VAULT_URL`, `OPN_API_VERSION`,
 * `OPN_TIMEOUT_MS` optional. Returns null when the mode has no key (Opn does not serve it).
 * Throws, naming the variable but never its value, when a key is of the wrong kind.
 */
export function opnClientOptions(env: Record<string, string | undefined>, mode: OpnMode): OpnClientOptions | null {
  const name = mode === 'test' ? 'OPN_SECRET_KEY_TEST' : 'OPN_SECRET_KEY_LIVE';
  const file = env[`${name}_FILE`];
  const secretKey = (file ? readFileSync(file, 'utf8') : env[name])?.trim();
  if (!secretKey) return null;
  const isTest = secretKey.startsWith('skey_test_');
  if (!/^skey_\w+$/.test(secretKey) || isTest !== (mode === 'test')) {
    throw new Error(
      `${file ? `${name}_FILE` : name} must hold an Opn ${mode} secret key (skey_${isTest ? '' : 'test_'}…)`,
    );
  }
  const timeoutMs = env.OPN_TIMEOUT_MS ? Number(env.OPN_TIMEOUT_MS) : 15_000;
  if (!Number.isInteger(timeoutMs) || timeoutMs < 100 || timeoutMs > 120_000) {
    throw new Error('OPN_TIMEOUT_MS must be an integer between 100 and 120000');
  }
  return {
    secretKey,
    apiBase: env.OPN_BASE_URL || OPN_API_BASE,
    vaultBase: env.OPN_VAULT_URL || OPN_VAULT_BASE,
    omiseVersion: env.OPN_API_VERSION || OPN_DEFAULT_VERSION,
    timeoutMs,
  };
}
