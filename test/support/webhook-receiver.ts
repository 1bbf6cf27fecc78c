import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  event: { id: string; type: string; [key: string]: unknown };
}

/**
 * A real HTTP receiver on loopback for webhook tests: records every request and answers with the
 * status `respond` gives (200 by default), so a test can fail it a number of times, or hold its
 * answer until the test lets it go (a slow receiver whose pace the test controls).
 */
export class WebhookReceiver {
  readonly received: Received[] = [];
  respond: (req: Received) => number | Promise<number> = () => 200;
  private server: Server | undefined;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const received = { headers: req.headers, body, event: JSON.parse(body) as Received['event'] };
        this.received.push(received);
        const status = await this.respond(received);
        res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : `failing with ${status}`);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/webhooks`;
    return this;
  }

  ofType(type: string): Received[] {
    return this.received.filter((r) => r.event.type === type);
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}
