import type { paths } from './generated/wallet-api.js';

/** Every wallet operation's path in the OpenAPI document starts with this; the client's paths are what follows. */
export type Prefix = '/api/v1/{app}/platform/wallet';
export type Method = 'get' | 'post' | 'delete';

/** The paths (after the prefix) that have method `M`, e.g. `'/customers'` or `'/customers/{id}'`. */
export type PathOf<M extends Method> = {
  [P in keyof paths]: P extends `${Prefix}${infer S}` ? ([paths[P][M]] extends [undefined] ? never : S) : never;
}[keyof paths];

export type Operation<M extends Method, S extends string> = `${Prefix}${S}` extends keyof paths
  ? NonNullable<paths[`${Prefix}${S}`][M]>
  : never;

type JsonOf<R> = R extends { content: { 'application/json': infer B } } ? B : undefined;

/** The body of the operation's 2xx answer. */
export type ResponseOf<O> = O extends { responses: infer R }
  ? { [K in keyof R]: K extends 200 | 201 | 202 | 204 ? JsonOf<R[K]> : never }[keyof R]
  : unknown;

/** The operation's JSON request body. */
export type BodyOf<O> = O extends { requestBody?: infer B } ? JsonOf<NonNullable<B>> : never;

/** The operation's query parameters. */
export type QueryOf<O> = O extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

/** The operation's path parameters other than the application (which the client's base URL carries). */
export type PathParamsOf<O> = O extends { parameters: { path?: infer P } }
  ? Omit<NonNullable<P>, 'app'>
  : Record<string, never>;

export interface CallOptions<O> {
  /** Values for `{placeholders}` in the path. */
  path?: PathParamsOf<O>;
  query?: QueryOf<O>;
  /** Extra headers for this call only. */
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export interface PostOptions<O> extends CallOptions<O> {
  body?: BodyOf<O>;
  /** The Idempotency-Key to send (default: a new UUID per call, the same on each of its retries). */
  idempotencyKey?: string;
}

/** The element type of a list operation's `data`. */
export type ItemOf<O> = ResponseOf<O> extends { data: (infer T)[] } ? T : never;

/** The paths whose GET answers a list envelope. */
export type ListPath = {
  [S in PathOf<'get'>]: ResponseOf<Operation<'get', S>> extends { object: string; data: unknown[] } ? S : never;
}[PathOf<'get'>];
