import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import { addressRefusal, hostOf, keepsExcerpt, type AddressPolicy } from './webhook-url.js';

/** Each attempt's limit, connection to last byte. */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** How much of the receiver's answer is kept with the attempt (none from a non-public address). */
export const EXCERPT_BYTES = 1024;

export interface SendResult {
  statusCode: number | null;
  durationMs: number;
  excerpt: string | null;
  error: string | null;
}

/** DNS lookup that refuses, at connection time, any address the policy forbids (no DNS rebinding). */
function guardedLookup(policy: AddressPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 0);
      const bad = addresses.find((a) => addressRefusal(a.address, policy) !== null);
      if (bad) {
        const refusal = addressRefusal(bad.address, policy)!;
        return callback(new Error(`${hostname} resolves to ${bad.address} (${refusal.key})`), '', 0);
      }
      if ((options as { all?: boolean }).all)
        return (callback as (e: null, a: LookupAddress[]) => void)(null, addresses);
      return callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

/** Kept-alive connections per scheme and policy; each was checked by the guarded lookup when it opened. */
const agents = new Map<string, HttpAgent>();

function agentFor(protocol: string, policy: AddressPolicy): HttpAgent {
  const key = `${protocol}${policy}`;
  let agent = agents.get(key);
  if (!agent) {
    const options = { keepAlive: true, maxSockets: 16, lookup: guardedLookup(policy) };
    agent = protocol === 'https:' ? new HttpsAgent(options) : new HttpAgent(options);
    agents.set(key, agent);
  }
  return agent;
}

/**
 * POSTs `body` to `url` once: no redirect is followed (a 3xx is a failed attempt), every address
 * connected to is checked against the policy (so a name re-pointed at an internal address after
 * registration is refused), and the whole exchange is cut at DELIVERY_TIMEOUT_MS.
 * Never throws: what went wrong is in `error`.
 */
export function postWebhook(
  url: string,
  body: string,
  headers: Record<string, string>,
  policy: AddressPolicy,
  timeoutMs = DELIVERY_TIMEOUT_MS,
): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const target = new URL(url);
  const host = hostOf(target);
  if (isIP(host)) {
    const refusal = addressRefusal(host, policy);
    if (refusal)
      return Promise.resolve({ statusCode: null, durationMs: 0, excerpt: null, error: `refused: ${refusal.key}` });
  }
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<SendResult>((resolve) => {
    let settled = false;
    const finish = (result: Omit<SendResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      resolve({ ...result, durationMs: elapsed() });
    };
    const req = send(
      target,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers },
        signal: AbortSignal.timeout(timeoutMs),
        agent: agentFor(target.protocol, policy),
      },
      (res: IncomingMessage) => {
        const keep = keepsExcerpt(res.socket?.remoteAddress);
        const excerpt = () => (keep ? Buffer.concat(chunks).toString('utf8') : null);
        const chunks: Buffer[] = [];
        let kept = 0;
        res.on('data', (chunk: Buffer) => {
          if (keep && kept < EXCERPT_BYTES) {
            chunks.push(chunk.subarray(0, EXCERPT_BYTES - kept));
            kept += Math.min(chunk.length, EXCERPT_BYTES - kept);
          }
        });
        res.on('end', () => finish({ statusCode: res.statusCode ?? null, excerpt: excerpt(), error: null }));
        res.on('error', (err) =>
          finish({ statusCode: res.statusCode ?? null, excerpt: excerpt(), error: err.message }),
        );
      },
    );
    req.on('error', (err) => {
      const timedOut = err.name === 'AbortError' || err.name === 'TimeoutError';
      finish({
        statusCode: null,
        excerpt: null,
        error: timedOut ? `no answer within ${timeoutMs / 1000} s` : err.message.slice(0, 500),
      });
    });
    req.end(body);
  });
}
