import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { freePort } from './processes.js';

/** A fixture from test/fixtures/opn/, without its `_source` note (Opn's own bodies have none). */
export function opnFixture<T extends object = Record<string, unknown>>(name: string): T {
  const raw = JSON.parse(readFileSync(join(process.cwd(), 'test/fixtures/opn', `${name}.json`), 'utf8')) as Record<
    string,
    unknown
  >;
  delete raw._source;
  return raw as T;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  /** The form body decoded flat, bracketed keys as sent (`bank_account[brand]`). */
  form: Record<string, string>;
}

/** An answer: a status and a JSON body (a fixture name, an object), raw text, or no answer at all. */
export type OpnAnswer =
  | { status: number; fixture: string; patch?: Record<string, unknown> }
  | { status: number; json: unknown }
  | { status: number; text: string }
  | { hang: true };

/**
 * A local stand-in for api.omise.co (and vault.omise.co's POST /tokens): answers each "METHOD /path" with the answers queued for it
 * (the last one repeats), checks HTTP Basic with a secret key as Opn does, records every request.
 */
export class FakeOpn {
  readonly requests: RecordedRequest[] = [];
  private readonly routes = new Map<string, OpnAnswer[]>();
  private readonly hanging = new Set<ServerResponse>();
  private server!: Server;
  baseUrl = '';

  constructor(
    readonly secretKey = 'skey_test_5fakeopnsecretkey00',
    /** vault.omise.co's key: `POST /tokens` (Omise.js in the browser) authenticates with the public key. */
    readonly publicKey?: string,
  ) {}

  async start(): Promise<this> {
    const port = await freePort();
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server.listen(port, '127.0.0.1', resolve));
    this.baseUrl = `http://127.0.0.1:${port}`;
    return this;
  }

  async stop(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  on(route: string, ...answers: OpnAnswer[]): this {
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
    const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString()));
    this.requests.push({ method: req.method ?? 'GET', path, headers: req.headers, form });

    const key = path === '/tokens' && this.publicKey ? this.publicKey : this.secretKey;
    const expected = `Basic ${Buffer.from(`${key}:`).toString('base64')}`;
    if (req.headers.authorization !== expected) return this.send(res, 401, opnFixture('error_authentication_failure'));

    const answers = this.routes.get(`${req.method} ${path}`);
    if (!answers?.length)
      return this.send(res, 404, { ...opnFixture('error_not_found'), message: `${path} was not found` });
    const answer = answers.length > 1 ? answers.shift()! : answers[0];
    if ('hang' in answer) {
      this.hanging.add(res);
      return;
    }
    if ('text' in answer) {
      res.writeHead(answer.status, { 'content-type': 'text/html' }).end(answer.text);
      return;
    }
    const body = 'fixture' in answer ? { ...opnFixture(answer.fixture), ...answer.patch } : answer.json;
    this.send(res, answer.status, body);
  }

  private send(res: ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  }
}
