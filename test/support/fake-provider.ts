import { readFileSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { closeNow, listenOnLoopback } from './processes.js';

/**
 * A fixture from test/fixtures/<provider>/, without the notes the fixture files carry (`_source`,
 * `_http_status`), which the provider's own bodies do not have.
 */
export function providerFixture<T extends object = Record<string, unknown>>(provider: string, name: string): T {
  const raw = JSON.parse(
    readFileSync(join(process.cwd(), 'test/fixtures', provider, `${name}.json`), 'utf8'),
  ) as Record<string, unknown>;
  delete raw._source;
  delete raw._http_status;
  return raw as T;
}

export const opnFixture = <T extends object = Record<string, unknown>>(name: string): T =>
  providerFixture<T>('opn', name);
export const stripeFixture = <T extends object = Record<string, unknown>>(name: string): T =>
  providerFixture<T>('stripe', name);

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  /** The form body decoded flat, bracketed keys as sent (`bank_account[brand]`, `metadata[charge_id]`). */
  form: Record<string, string>;
  /** The query string decoded flat, bracketed keys as sent (`created[gte]`). */
  query: Record<string, string>;
  /** The body's bytes as received (a multipart upload's files are read from it: `multipartParts`). */
  raw: Buffer;
}

/** One part of a multipart/form-data body. */
export interface MultipartPart {
  name: string;
  filename: string | null;
  contentType: string | null;
  body: Buffer;
}

/** The parts of a recorded multipart/form-data request (RFC 7578), bytes untouched. */
export function multipartParts(req: RecordedRequest): MultipartPart[] {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(String(req.headers['content-type'] ?? ''));
  if (!boundary) throw new Error(`${req.method} ${req.path} is not multipart/form-data`);
  const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
  const parts: MultipartPart[] = [];
  let at = req.raw.indexOf(delimiter);
  while (at !== -1) {
    const start = at + delimiter.length;
    if (req.raw.subarray(start, start + 2).toString() === '--') break;
    const next = req.raw.indexOf(delimiter, start);
    if (next === -1) break;
    const part = req.raw.subarray(start + 2, next - 2); // after CRLF, before the CRLF that ends it
    const split = part.indexOf('\r\n\r\n');
    const head = part.subarray(0, split).toString('utf8');
    const disposition = /content-disposition:[^\r\n]*/i.exec(head)?.[0] ?? '';
    parts.push({
      name: /\bname="([^"]*)"/.exec(disposition)?.[1] ?? '',
      filename: /filename="([^"]*)"/.exec(disposition)?.[1] ?? null,
      contentType: /content-type:\s*([^\r\n]+)/i.exec(head)?.[1]?.trim() ?? null,
      body: Buffer.from(part.subarray(split + 4)),
    });
    at = next;
  }
  return parts;
}

/** An answer: a status and a JSON body (a fixture name, an object), raw text, or no answer at all. */
export type FakeAnswer =
  | { status: number; fixture: string; patch?: Record<string, unknown> }
  | { status: number; json: unknown }
  | { status: number; text: string }
  | { hang: true }
  /** Computed from the request each time (a list served from seeded data, paged by its query). */
  | { answer: (req: RecordedRequest) => { status: number; json: unknown } };

/** What makes the fake server one provider: its fixtures, how it checks keys, its own error bodies. */
interface ProviderProfile {
  /** test/fixtures/<fixtures>/ */
  fixtures: string;
  secretKey: string;
  /** Whether the request carries the key the provider expects on this path. */
  authorized(req: IncomingMessage, path: string): boolean;
  unauthorized(): unknown;
  notFound(path: string): unknown;
  /** Headers every answer of this provider carries. */
  headers?: Record<string, string>;
}

/**
 * A local stand-in for a provider's API that the real adapters talk to: answers each
 * "METHOD /path" with the answers queued for it (the last one repeats), checks the key as the
 * provider does, and records every request. `fakeOpn` and `fakeStripe` give it each provider's
 * profile.
 */
export class FakeProvider {
  readonly requests: RecordedRequest[] = [];
  readonly secretKey: string;
  private readonly routes = new Map<string, FakeAnswer[]>();
  private readonly hanging = new Set<ServerResponse>();
  private server!: Server;
  port = 0;

  constructor(private readonly profile: ProviderProfile) {
    this.secretKey = profile.secretKey;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<this> {
    ({ server: this.server, port: this.port } = await listenOnLoopback((req, res) => void this.handle(req, res)));
    return this;
  }

  async stop(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    await closeNow(this.server);
  }

  on(route: string, ...answers: FakeAnswer[]): this {
    this.routes.set(route, answers);
    return this;
  }

  reset(): void {
    this.routes.clear();
    this.requests.length = 0;
  }

  last(route: string): RecordedRequest {
    const [method, path] = route.split(' ');
    const found = [...this.requests].reverse().find((r) => r.method === method && r.path === path);
    if (!found)
      throw new Error(`no ${route} request was made: ${this.requests.map((r) => `${r.method} ${r.path}`).join(', ')}`);
    return found;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const path = (req.url ?? '/').split('?')[0];
    const raw = Buffer.concat(chunks);
    const form = Object.fromEntries(new URLSearchParams(raw.toString()));
    const query = Object.fromEntries(new URLSearchParams((req.url ?? '').split('?')[1] ?? ''));
    this.requests.push({ method: req.method ?? 'GET', path, headers: req.headers, form, query, raw });

    if (!this.profile.authorized(req, path)) return this.send(res, 401, this.profile.unauthorized());
    const answers = this.routes.get(`${req.method} ${path}`);
    if (!answers?.length) return this.send(res, 404, this.profile.notFound(path));
    const answer = answers.length > 1 ? answers.shift()! : answers[0];
    if ('answer' in answer) {
      const computed = answer.answer(this.requests[this.requests.length - 1]);
      return this.send(res, computed.status, computed.json);
    }
    if ('hang' in answer) {
      this.hanging.add(res);
      return;
    }
    if ('text' in answer) {
      res.writeHead(answer.status, { 'content-type': 'text/html' }).end(answer.text);
      return;
    }
    const body =
      'fixture' in answer
        ? { ...providerFixture(this.profile.fixtures, answer.fixture), ...answer.patch }
        : answer.json;
    this.send(res, answer.status, body);
  }

  private send(res: ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, { 'content-type': 'application/json', ...this.profile.headers }).end(JSON.stringify(body));
  }
}

/**
 * api.omise.co (and vault.omise.co's POST /tokens): HTTP Basic with the secret key, or with the
 * public key for `POST /tokens` (Omise.js in the browser) when one is given.
 */
export function fakeOpn(secretKey = 'skey_test_5fakeopnsecretkey00', publicKey?: string): FakeProvider {
  const basic = (key: string) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;
  return new FakeProvider({
    fixtures: 'opn',
    secretKey,
    authorized: (req, path) =>
      req.headers.authorization === basic(path === '/tokens' && publicKey ? publicKey : secretKey),
    unauthorized: () => opnFixture('error_authentication_failure'),
    notFound: (path) => ({ ...opnFixture('error_not_found'), message: `${path} was not found` }),
  });
}

/** api.stripe.com, as the real SDK reaches it (host/port/protocol options): a Bearer secret key. */
export function fakeStripe(secretKey = 'sk_test_51FakeStripeSecretKey0000'): FakeProvider {
  return new FakeProvider({
    fixtures: 'stripe',
    secretKey,
    authorized: (req) => req.headers.authorization === `Bearer ${secretKey}`,
    unauthorized: () => stripeFixture('error_authentication'),
    notFound: () => stripeFixture('error_not_found'),
    headers: { 'request-id': 'req_fake' },
  });
}
