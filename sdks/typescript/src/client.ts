import { randomUUID } from 'node:crypto';
import { WalletError, errorObjectOf } from './errors.js';
import { DEFAULT_RETRY, isRetryable, retryAfterMs, retryDelayMs, type RetryPolicy } from './retry.js';
import type {
  CallOptions,
  ItemOf,
  ListPath,
  Method,
  Operation,
  PathOf,
  PostOptions,
  QueryOf,
  ResponseOf,
} from './types.js';

export interface WalletClientOptions {
  /** The application's wallet base URL: `https://host/api/v1/{app}/platform/wallet`. */
  baseUrl: string;
  /** A secret key (`sk_test_…` or `sk_live_…`), sent as HTTP Basic. */
  secretKey: string;
  /** Sends `X-Test-Mode: true|false` (test data or live); omitted when not given. */
  testMode?: boolean;
  /** Sends `X-Country` (ISO 3166-1 alpha-2, e.g. `TH`); omitted when not given. */
  country?: string;
  /** Retries of 409 E2007, 429, 5xx and network failures (bounded; Retry-After honoured). */
  retry?: Partial<RetryPolicy>;
  /** Per-attempt timeout in ms (default 60 000). */
  timeoutMs?: number;
  /** For tests and instrumentation: the fetch, sleep and randomness the client uses. */
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

type Query = Record<string, unknown>;

/** Serializes a query object: arrays as comma lists, nested objects as `key[sub]` (the list engine's `filter[field][op]`). */
export function queryString(query: Query | undefined): string {
  const params = new URLSearchParams();
  const add = (key: string, value: unknown): void => {
    if (value === undefined || value === null) return;
    if (Array.isArray(value)) params.append(key, value.join(','));
    else if (typeof value === 'object') for (const [k, v] of Object.entries(value)) add(`${key}[${k}]`, v);
    else params.append(key, String(value));
  };
  for (const [key, value] of Object.entries(query ?? {})) add(key, value);
  const text = params.toString();
  return text ? `?${text}` : '';
}

function fillPath(path: string, values: Record<string, unknown> | undefined): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = values?.[name];
    if (value === undefined || value === null) throw new TypeError(`path parameter ${name} of ${path} is missing`);
    return encodeURIComponent(String(value));
  });
}

/**
 * A thin typed client of the wallet API: one method per HTTP method, paths and bodies typed from the
 * OpenAPI document (src/generated/wallet-api.ts), errors thrown as WalletError.
 */
export class WalletClient {
  private readonly base: string;
  private readonly retry: RetryPolicy;
  private readonly fetchImpl: typeof fetch;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly random: () => number;

  constructor(private readonly options: WalletClientOptions) {
    this.base = options.baseUrl.replace(/\/+$/, '');
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    if (!Number.isInteger(this.retry.maxAttempts) || this.retry.maxAttempts < 1) {
      throw new TypeError('retry.maxAttempts: an integer of at least 1');
    }
    this.fetchImpl = options.fetch ?? fetch;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.random = options.random ?? Math.random;
  }

  get<S extends PathOf<'get'>>(path: S, options: CallOptions<Operation<'get', S>> = {}) {
    return this.request<ResponseOf<Operation<'get', S>>>('get', path, options);
  }

  post<S extends PathOf<'post'>>(path: S, options: PostOptions<Operation<'post', S>> = {}) {
    const headers = { 'Idempotency-Key': options.idempotencyKey ?? randomUUID(), ...options.headers };
    return this.request<ResponseOf<Operation<'post', S>>>('post', path, { ...options, headers });
  }

  delete<S extends PathOf<'delete'>>(path: S, options: CallOptions<Operation<'delete', S>> = {}) {
    return this.request<ResponseOf<Operation<'delete', S>>>('delete', path, options);
  }

  /**
   * Every record of a list, page after page in cursor mode (`use-cursor=true`, then
   * `starting_after=<last id>` while `has_more`): `for await (const c of client.list('/customers', { limit: 100 }))`.
   */
  async *list<S extends ListPath>(
    path: S,
    query: Omit<QueryOf<Operation<'get', S>>, 'use-cursor' | 'starting_after' | 'ending_before' | 'page'> = {} as never,
    options: Omit<CallOptions<Operation<'get', S>>, 'query'> = {},
  ): AsyncGenerator<ItemOf<Operation<'get', S>>, void, undefined> {
    let after: string | undefined;
    for (;;) {
      const page = (await this.request('get', path, {
        ...options,
        query: { ...(query as Query), 'use-cursor': true, ...(after ? { starting_after: after } : {}) },
      })) as { data: { id: string }[]; has_more?: boolean };
      for (const item of page.data) yield item as ItemOf<Operation<'get', S>>;
      if (!page.has_more || page.data.length === 0) return;
      after = page.data[page.data.length - 1].id;
    }
  }

  private async request<T>(
    method: Method,
    path: string,
    options: {
      path?: unknown;
      query?: unknown;
      body?: unknown;
      headers?: Record<string, string>;
      signal?: AbortSignal;
    },
  ): Promise<T> {
    const url = `${this.base}${fillPath(path, options.path as Record<string, unknown>)}${queryString(options.query as Query)}`;
    const headers: Record<string, string> = {
      Authorization: `Basic ${Buffer.from(`${this.options.secretKey}:`).toString('base64')}`,
      Accept: 'application/json',
      ...(this.options.testMode === undefined ? {} : { 'X-Test-Mode': String(this.options.testMode) }),
      ...(this.options.country ? { 'X-Country': this.options.country } : {}),
      ...(options.body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...options.headers,
    };
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    for (let attempt = 1; ; attempt += 1) {
      const last = attempt >= this.retry.maxAttempts;
      let response: Response;
      try {
        const timeout = AbortSignal.timeout(this.options.timeoutMs ?? 60_000);
        const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
        response = await this.fetchImpl(url, { method: method.toUpperCase(), headers, body, signal });
      } catch (cause) {
        if (options.signal?.aborted || last) {
          throw new WalletError(0, { code: 'network_error', message: String(cause) }, { cause });
        }
        await this.sleep(retryDelayMs(this.retry, attempt, undefined, this.random()));
        continue;
      }
      const text = await response.text();
      let parsed: unknown = text;
      if (text && (response.headers.get('content-type') ?? '').includes('json')) {
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = text;
        }
      }
      if (response.ok) return (text ? parsed : undefined) as T;
      const error = errorObjectOf(response.status, parsed, response.headers.get('x-request-id'));
      if (last || !isRetryable(response.status, error.code)) throw new WalletError(response.status, error);
      const after = retryAfterMs(response.headers.get('retry-after'), Date.now());
      await this.sleep(retryDelayMs(this.retry, attempt, after, this.random()));
    }
  }
}
