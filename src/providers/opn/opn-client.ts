/**
 * A small client for Opn Payments' (Omise's) HTTP API over Node's fetch: no SDK, so the same code
 * runs against https://api.omise.co and against a local contract-test server (`apiBase`).
 *
 * - HTTP Basic with the secret key as user name and an empty password (Opn's documented scheme).
 * - `Omise-Version` pins the API version so a dashboard change cannot alter response shapes.
 * - Every call has a deadline (AbortSignal.timeout); a write may carry an `Idempotency-Key`.
 * - Opn answers an error as `{ object: "error", code, message }` with a 4xx/5xx status: it
 *   surfaces as OpnApiError; no answer at all (timeout, connection refused) as OpnUnreachable.
 * Keys are never put in an error message or a log line.
 */

export interface OpnClientOptions {
  /** `skey_test_…` or `skey_…`. */
  secretKey: string;
  /** Default https://api.omise.co. */
  apiBase?: string;
  /** Default https://vault.omise.co (tokens; the service itself never creates one). */
  vaultBase?: string;
  /** Pinned API version sent as `Omise-Version`. */
  omiseVersion?: string;
  /** Per-request deadline; default 15 s. */
  timeoutMs?: number;
}

export const OPN_API_BASE = 'https://api.omise.co';
export const OPN_VAULT_BASE = 'https://vault.omise.co';
export const OPN_DEFAULT_VERSION = '2019-05-29';

/** Opn answered with an error object (or a non-JSON error page). */
export class OpnApiError extends Error {
  constructor(
    readonly httpStatus: number,
    /** Opn's `code`, e.g. `invalid_card`, `authentication_failure`; `http_<status>` when the body was not an error object. */
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'OpnApiError';
  }
  get retryable(): boolean {
    return (
      this.httpStatus >= 500 ||
      this.httpStatus === 429 ||
      this.code === 'service_not_found' ||
      this.code === 'backend_error'
    );
  }
}

/** Opn did not answer: timeout, connection refused, DNS. Whether a write took effect is unknown. */
export class OpnUnreachable extends Error {
  constructor(
    readonly timedOut: boolean,
    message: string,
  ) {
    super(message);
    this.name = 'OpnUnreachable';
  }
}

/** A file for a multipart upload. */
export interface OpnUpload {
  filename: string;
  contentType: string;
  body: Buffer;
}

export type OpnObject = Record<string, unknown> & { object: string; id?: string };

export interface Form {
  [key: string]: string | number | boolean | null | undefined | Form;
}

/** Opn takes form-encoded bodies with bracketed nested keys (`bank_account[brand]=kbank`). */
export function encodeForm(body: Form, prefix = '', out = new URLSearchParams()): URLSearchParams {
  for (const [key, value] of Object.entries(body)) {
    if (value === undefined || value === null) continue;
    const name = prefix ? `${prefix}[${key}]` : key;
    if (typeof value === 'object') encodeForm(value, name, out);
    else out.append(name, String(value));
  }
  return out;
}

export class OpnClient {
  private readonly apiBase: string;
  private readonly vaultBase: string;
  private readonly authorization: string;
  private readonly version: string;
  private readonly timeoutMs: number;

  constructor(options: OpnClientOptions) {
    if (!/^skey_(test_)?\w+$/.test(options.secretKey))
      throw new Error('OpnClient: the secret key must look like skey_…');
    this.apiBase = (options.apiBase ?? OPN_API_BASE).replace(/\/+$/, '');
    this.vaultBase = (options.vaultBase ?? OPN_VAULT_BASE).replace(/\/+$/, '');
    this.authorization = `Basic ${Buffer.from(`${options.secretKey}:`).toString('base64')}`;
    this.version = options.omiseVersion ?? OPN_DEFAULT_VERSION;
    this.timeoutMs = options.timeoutMs ?? 15_000;
  }

  /** Whether the key is a test key (Opn's test environment) – never mix with live-mode requests. */
  static isTestKey(secretKey: string): boolean {
    return secretKey.startsWith('skey_test_');
  }

  get<T extends OpnObject = OpnObject>(path: string): Promise<T> {
    return this.request<T>('GET', this.apiBase, path);
  }

  post<T extends OpnObject = OpnObject>(path: string, body: Form, idempotencyKey?: string): Promise<T> {
    return this.request<T>('POST', this.apiBase, path, body, idempotencyKey);
  }

  patch<T extends OpnObject = OpnObject>(path: string, body: Form): Promise<T> {
    return this.request<T>('PATCH', this.apiBase, path, body);
  }

  /** A multipart upload (dispute documents): one file under `field`. */
  postFile<T extends OpnObject = OpnObject>(path: string, field: string, file: OpnUpload, idempotencyKey?: string) {
    const form = new FormData();
    form.append(field, new Blob([new Uint8Array(file.body)], { type: file.contentType }), file.filename);
    return this.request<T>('POST', this.apiBase, path, form, idempotencyKey);
  }

  delete<T extends OpnObject = OpnObject>(path: string): Promise<T> {
    return this.request<T>('DELETE', this.apiBase, path);
  }

  /** Vault calls (token retrieval); tokens are made in the browser by Omise.js, never here. */
  vaultGet<T extends OpnObject = OpnObject>(path: string): Promise<T> {
    return this.request<T>('GET', this.vaultBase, path);
  }

  private async request<T extends OpnObject>(
    method: string,
    base: string,
    path: string,
    body?: Form | FormData,
    idempotencyKey?: string,
  ): Promise<T> {
    const headers: Record<string, string> = {
      Authorization: this.authorization,
      'Omise-Version': this.version,
      Accept: 'application/json',
      'User-Agent': 'wallet-payments-opn/1',
    };
    if (idempotencyKey) headers['Idempotency-Key'] = idempotencyKey;
    let payload: string | FormData | undefined;
    if (body instanceof FormData) {
      // fetch writes the multipart Content-Type with its boundary.
      payload = body;
    } else if (body) {
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
      payload = encodeForm(body).toString();
    }
    let res: Response;
    let text: string;
    try {
      res = await fetch(`${base}${path}`, {
        method,
        headers,
        body: payload,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      text = await res.text();
    } catch (err) {
      const name = (err as Error).name;
      const timedOut = name === 'TimeoutError' || name === 'AbortError';
      throw new OpnUnreachable(
        timedOut,
        timedOut
          ? `Opn did not answer ${method} ${path} within ${this.timeoutMs} ms`
          : `Opn could not be reached for ${method} ${path}`,
      );
    }
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = null;
    }
    const obj = json as OpnObject | null;
    if (obj && obj.object === 'error') {
      throw new OpnApiError(res.status, String(obj.code ?? `http_${res.status}`), String(obj.message ?? 'Opn error'));
    }
    if (!res.ok || !obj || typeof obj.object !== 'string') {
      throw new OpnApiError(res.status, `http_${res.status}`, `Opn answered ${method} ${path} with HTTP ${res.status}`);
    }
    return obj as T;
  }
}
