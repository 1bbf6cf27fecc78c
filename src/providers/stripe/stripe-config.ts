import { readFileSync } from 'node:fs';
import Stripe from 'stripe';

export type StripeMode = 'test' | 'live';

/** Pinned API version (the one stripe@23.1.0 is typed for): a dashboard upgrade cannot change the shapes the adapter reads. */
export const STRIPE_API_VERSION = '2026-10-28.endive';

export interface StripeClientOptions {
  /** `sk_test_…` / `sk_live_…` (or a restricted `rk_…` key of the same mode). */
  secretKey: string;
  /** `whsec_…`: the signing secret of the webhook endpoint for this mode. */
  webhookSecret: string | null;
  /** Default api.stripe.com:443 over https; a local contract-test server sets these. */
  host?: string;
  port?: number;
  protocol?: 'http' | 'https';
  /** Per-request deadline; default 15 s. */
  timeoutMs: number;
  /** The SDK's own retries (same idempotency key); 0 leaves retrying to the caller. */
  maxNetworkRetries: number;
}

const KEY = /^(sk|rk)_(test|live)_\w+$/;

function secret(env: Record<string, string | undefined>, name: string): string | undefined {
  const file = env[`${name}_FILE`];
  return (file ? readFileSync(file, 'utf8') : env[name])?.trim() || undefined;
}

/**
 * Stripe settings for one mode from an environment record (src/config passes process.env).
 * `STRIPE_SECRET_KEY_TEST` / `STRIPE_SECRET_KEY_LIVE` and `STRIPE_WEBHOOK_SECRET_TEST` /
 * `STRIPE_WEBHOOK_SECRET_LIVE`, each also as `…_FILE` (a mounted Kubernetes Secret);
 * `STRIPE_API_HOST`, `STRIPE_API_PORT`, `STRIPE_API_PROTOCOL`, `STRIPE_TIMEOUT_MS`,
 * `STRIPE_MAX_NETWORK_RETRIES` optional. Null when the mode has no key. A key of the wrong kind
 * is refused naming the variable, never echoing the value.
 */
export function stripeClientOptions(
  env: Record<string, string | undefined>,
  mode: StripeMode,
): StripeClientOptions | null {
  const suffix = mode === 'test' ? 'TEST' : 'LIVE';
  const name = `STRIPE_SECRET_KEY_${suffix}`;
  const secretKey = secret(env, name);
  if (!secretKey) return null;
  const m = KEY.exec(secretKey);
  if (!m || m[2] !== mode) {
    throw new Error(
      `${env[`${name}_FILE`] ? `${name}_FILE` : name} must hold a Stripe ${mode} secret key (sk_${mode}_…)`,
    );
  }
  const webhookSecret = secret(env, `STRIPE_WEBHOOK_SECRET_${suffix}`) ?? null;
  if (webhookSecret && !webhookSecret.startsWith('whsec_')) {
    throw new Error(`STRIPE_WEBHOOK_SECRET_${suffix} must hold a webhook signing secret (whsec_…)`);
  }
  const timeoutMs = env.STRIPE_TIMEOUT_MS ? Number(env.STRIPE_TIMEOUT_MS) : 15_000;
  if (!Number.isInteger(timeoutMs) || timeoutMs < 100 || timeoutMs > 120_000) {
    throw new Error('STRIPE_TIMEOUT_MS must be an integer between 100 and 120000');
  }
  const retries = env.STRIPE_MAX_NETWORK_RETRIES ? Number(env.STRIPE_MAX_NETWORK_RETRIES) : 0;
  if (!Number.isInteger(retries) || retries < 0 || retries > 5) {
    throw new Error('STRIPE_MAX_NETWORK_RETRIES must be an integer between 0 and 5');
  }
  const protocol = env.STRIPE_API_PROTOCOL;
  if (protocol && protocol !== 'http' && protocol !== 'https') {
    throw new Error('STRIPE_API_PROTOCOL must be http or https');
  }
  return {
    secretKey,
    webhookSecret,
    host: env.STRIPE_API_HOST || undefined,
    port: env.STRIPE_API_PORT ? Number(env.STRIPE_API_PORT) : undefined,
    protocol: protocol === 'http' || protocol === 'https' ? protocol : undefined,
    timeoutMs,
    maxNetworkRetries: retries,
  };
}

/** The SDK client, pointed at Stripe or (host/port/protocol) at a local server. */
export function createStripeClient(options: StripeClientOptions): Stripe {
  return new Stripe(options.secretKey, {
    apiVersion: STRIPE_API_VERSION as Stripe.StripeConfig['apiVersion'],
    host: options.host,
    port: options.port,
    protocol: options.protocol,
    timeout: options.timeoutMs,
    maxNetworkRetries: options.maxNetworkRetries,
    telemetry: false,
    appInfo: { name: 'wallet-payments-stripe', version: '1' },
  });
}
