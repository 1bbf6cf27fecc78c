import type { IncomingMessage, ServerResponse } from 'node:http';

/** Paths whose handlers need the body's exact bytes (signature checks over the raw body). */
const RAW_BODY_PATHS = ['/provider_webhooks/'];

const RAW = Symbol('rawBody');

/**
 * The JSON parser's `verify` hook: keeps the bytes of a body on the paths that verify a signature
 * over them (Stripe-Signature is an HMAC of the raw body, not of a re-serialized one).
 */
export function keepRawBody(req: IncomingMessage, _res: ServerResponse, buf: Buffer): void {
  if (RAW_BODY_PATHS.some((p) => req.url?.startsWith(p))) (req as IncomingMessage & { [RAW]?: Buffer })[RAW] = buf;
}

/** The bytes `keepRawBody` kept, if any. */
export function rawBodyOf(req: IncomingMessage): Buffer | undefined {
  return (req as IncomingMessage & { [RAW]?: Buffer })[RAW];
}
