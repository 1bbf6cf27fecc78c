import { randomUUID } from 'node:crypto';

/**
 * The partner's view of a deployment, for the CLI commands that need no database: the wallet base
 * URL (`https://host/api/v1/{app}/platform/wallet`) and a test-mode secret key, nothing else.
 * Every call is a test-mode call; a POST carries an idempotency key so a retried command never
 * doubles a payment.
 */
export class WalletApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    what: string,
  ) {
    const error = body as { code?: string; message?: string } | null;
    super(`${what}: ${status} ${error?.code ?? ''} ${error?.message ?? JSON.stringify(body)}`.trim());
  }
}

export type Row = Record<string, unknown> & { id: string };

export class WalletApi {
  readonly base: string;
  /** `https://host/api/v1/{app}`: the vault lives beside the wallet base. */
  readonly appRoot: string;

  constructor(
    baseUrl: string,
    private readonly secretKey: string,
    readonly country = 'TH',
  ) {
    const url = new URL(baseUrl);
    if (!/^https?:$/.test(url.protocol) || !/\/api\/v1\/[^/]+\/platform\/wallet\/?$/.test(url.pathname)) {
      throw new Error(
        `the base URL (--base-url or WALLET_API_URL) must be the wallet base URL, https://host/api/v1/{app}/platform/wallet, got ${baseUrl}`,
      );
    }
    if (!/^sk_test_/.test(secretKey))
      throw new Error('the key (--key or WALLET_API_KEY) must be a test-mode secret key (sk_test_…)');
    this.base = url.toString().replace(/\/+$/, '');
    this.appRoot = this.base.replace(/\/platform\/wallet$/, '');
  }

  private headers(session?: string): Record<string, string> {
    const auth: Record<string, string> = session
      ? { 'X-Session-Token': session }
      : { Authorization: `Basic ${Buffer.from(`${this.secretKey}:`).toString('base64')}`, 'X-Test-Mode': 'true' };
    return { ...auth, 'X-Country': this.country, Accept: 'application/json' };
  }

  async call<T = Row>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: object, session?: string): Promise<T> {
    const url = path.startsWith('http') ? path : `${this.base}${path}`;
    const headers = this.headers(session);
    if (method === 'POST')
      Object.assign(headers, { 'Content-Type': 'application/json', 'Idempotency-Key': randomUUID() });
    const res = await fetch(url, { method, headers, body: method === 'POST' ? JSON.stringify(body ?? {}) : undefined });
    const text = await res.text();
    const parsed: unknown = text ? JSON.parse(text) : null;
    if (!res.ok) throw new WalletApiError(res.status, parsed, `${method} ${path}`);
    return parsed as T;
  }

  get<T = Row>(path: string): Promise<T> {
    return this.call<T>('GET', path);
  }

  post<T = Row>(path: string, body?: object, session?: string): Promise<T> {
    return this.call<T>('POST', path, body, session);
  }

  delete<T = Row>(path: string): Promise<T> {
    return this.call<T>('DELETE', path);
  }
}
