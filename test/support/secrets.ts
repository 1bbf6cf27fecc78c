import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import Test from 'supertest/lib/test.js';
import { containsCardNumber } from '../../src/common/http/card-data.js';

/**
 * Secrets the tests create or receive, written one a line to this worker's file in the run's log
 * directory; the global teardown checks that none of them appears in any log line the run wrote
 * (see secret-scan.mjs). Without a log directory (a run without the global setup) nothing is kept.
 */
const dir = process.env.WALLET_TEST_LOG_DIR;
const file = dir ? join(dir, `secrets-${process.env.JEST_WORKER_ID ?? '0'}-${process.pid}.txt`) : undefined;
const recorded = new Set<string>();
let paused = false;

/**
 * Stops (or resumes) recording what requests carry: for tests that send generated values in
 * credential-named fields (the fuzz test), which are not secrets and may rightly be logged.
 */
export function pauseSecretRecording(pause: boolean): void {
  paused = pause;
}

/** Values shorter than this are not secrets worth scanning for (and would match ordinary text). */
const MIN_LENGTH = 8;

export function recordSecret(...values: unknown[]): void {
  if (!file || paused) return;
  for (const value of values) {
    if (typeof value !== 'string' || value.length < MIN_LENGTH || value.includes('\n') || recorded.has(value)) continue;
    recorded.add(value);
    appendFileSync(file, `${value}\n`);
  }
}

/** Fields whose values are credentials or protected personal data, wherever they appear in a body. */
const SECRET_FIELDS = new Set([
  'password',
  'client_secret',
  'code',
  'code_verifier',
  'access_token',
  'refresh_token',
  'session',
  'secret',
  'accountNumber',
  'account_number',
  'phone_number',
  'primary_identify_id',
]);
const KEY = /^[sr]k_(test|live)_/;

function collectFrom(value: unknown, depth = 0, cards = false): void {
  if (depth > 8 || value === null || typeof value !== 'object') return;
  for (const [name, item] of Object.entries(value)) {
    if (typeof item === 'string') {
      // `code` is a secret where OAuth puts it, at the top of a body; nested it is a provider's or the
      // service's error code (a webhook's `last_payment_error.code`), which is logged and must be.
      if ((SECRET_FIELDS.has(name) && (name !== 'code' || depth === 0)) || KEY.test(item)) recordSecret(item);
      // A card number a test sends (to the vault, or to the payment API to see it refused) is never logged.
      if (cards && containsCardNumber(item)) recordSecret(item, item.replace(/[\s-]/g, ''));
    } else collectFrom(item, depth + 1, cards);
  }
}

function collectFromHeaders(headers: Record<string, unknown>): void {
  const authorization = headers.Authorization ?? headers.authorization;
  if (typeof authorization === 'string') {
    const [scheme, value = ''] = authorization.split(' ');
    if (/^basic$/i.test(scheme)) {
      const decoded = Buffer.from(value, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      recordSecret(colon === -1 ? decoded : decoded.slice(0, colon), colon === -1 ? '' : decoded.slice(colon + 1));
    } else recordSecret(value);
  }
  recordSecret(headers['X-Session-Token'] ?? headers['x-session-token']);
}

function collectFromForm(body: string): void {
  for (const [name, value] of new URLSearchParams(body)) if (SECRET_FIELDS.has(name)) recordSecret(value);
}

let installed = false;

/** Records the secrets of every request a test sends through supertest and of every answer it gets. */
export function recordSecretsOfExchanges(): void {
  if (installed || !file) return;
  installed = true;
  const proto = Test.prototype as unknown as {
    end(fn: (err: unknown, res: unknown) => void): unknown;
  };
  const end = proto.end;
  proto.end = function (this: { header?: Record<string, unknown>; _data?: unknown }, fn) {
    try {
      collectFromHeaders(this.header ?? {});
      if (typeof this._data === 'string') collectFromForm(this._data);
      else collectFrom(this._data, 0, true);
    } catch {
      // Recording is best effort: a request the test built oddly is still sent.
    }
    return end.call(this, (err: unknown, res: unknown) => {
      const response = res as { body?: unknown; headers?: Record<string, string> } | undefined;
      if (response) {
        collectFrom(response.body);
        const location = response.headers?.location;
        if (location) {
          for (const [name, value] of new URL(location, 'http://x').searchParams)
            if (SECRET_FIELDS.has(name)) recordSecret(value);
        }
      }
      fn(err, res);
    });
  };
}
