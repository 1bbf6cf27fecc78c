import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { freePort } from './processes.js';

/** A fixture from test/fixtures/stripe/, without its `_source` note and `_http_status`. */
export function stripeFixture<T extends object = Record<string, unknown>>(name: string): T {
  const raw = JSON.parse(readFileSync(join(process.cwd(), 'test/fixtures/stripe', `${name}.json`), 'utf8')) as Record<
    string,
    unknown
  >;
  delete raw._source;
  delete raw._http_status;
  return raw as T;
}

export interface RecordedStripeRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  /** The form body decoded flat, bracketed keys as the SDK sends them (`metadata[charge_id]`). */
  form: Record<string, string>;
}

export type StripeAnswer =
  | { status: number; fixture: string; patch?: Record<string, unknown> }
  | { status: number; json: unknown }
  | { status: number; text: string }
  | { hang: true };

/**
 * A local stand-in for api.stripe.com that the real SDK talks to (host/port/protocol options):
 * answers "METHOD /v1/path" with the queued answers (the last repeats), checks the Bearer secret
 * key as Stripe does, records every request.
 */
export class FakeStripe {
  readonly requests: RecordedStripeRequest[] = [];
  private readonly routes = new Map<string, StripeAnswer[]>();
  private readonly hanging = new Set<ServerResponse>();
  private server!: Server;
  port = 0;

  constructor(readonly secretKey = 'sk_test_51FakeStripeSecretKey0000') {}

  async start(): Promise<this> {
    this.port = await freePort();
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server.listen(this.port, '127.0.0.1', resolve));
    return this;
  }

  async stop(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  on(route: string, ...answers: StripeAnswer[]): this {
    this.routes.set(route, answers);
    return this;
  }

  reset(): void {
    this.routes.clear();
    this.requests.length = 0;
  }

  last(route: string): RecordedStripeRequest {
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
    const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString()));
    this.requests.push({ method: req.method ?? 'GET', path, headers: req.headers, form });

    if (req.headers.authorization !== `Bearer ${this.secretKey}`) {
      return this.send(res, 401, stripeFixture('error_authentication'));
    }
    const answers = this.routes.get(`${req.method} ${path}`);
    if (!answers?.length) return this.send(res, 404, stripeFixture('error_not_found'));
    const answer = answers.length > 1 ? answers.shift()! : answers[0];
    if ('hang' in answer) {
      this.hanging.add(res);
      return;
    }
    if ('text' in answer) {
      res.writeHead(answer.status, { 'content-type': 'text/html' }).end(answer.text);
      return;
    }
    const body = 'fixture' in answer ? { ...stripeFixture(answer.fixture), ...answer.patch } : answer.json;
    this.send(res, answer.status, body);
  }

  private send(res: ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, { 'content-type': 'application/json', 'request-id': 'req_fake' }).end(JSON.stringify(body));
  }
}
