import net from 'node:net';
import { createTenant, expectErrorObject, startApp, type TestApp } from '../../support/harness.js';

/**
 * A TCP proxy on loopback in front of the run's database, which the test can take down (every
 * connection cut, the port refusing) and bring back on the same port.
 */
class DatabaseProxy {
  private server?: net.Server;
  private readonly sockets = new Set<net.Socket>();
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async open(): Promise<void> {
    const server = net.createServer((client) => {
      const upstream = net.connect(this.targetPort, this.targetHost);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    // Below Linux's ephemeral range (32768+), so no outgoing socket (the pool's own reconnects) can take it.
    for (let attempt = 0; ; attempt++) {
      const port = this.port || 20_000 + Math.floor(Math.random() * 12_000);
      try {
        await new Promise<void>((resolve, reject) => {
          server.once('error', reject);
          server.listen(port, '127.0.0.1', () => {
            server.off('error', reject);
            resolve();
          });
        });
        this.port = port;
        break;
      } catch (err) {
        server.removeAllListeners('listening');
        if ((err as { code?: string }).code !== 'EADDRINUSE' || attempt >= 20) throw err;
        if (this.port) await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    this.server = server;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server = undefined;
  }
}

describe('database outage', () => {
  let t: TestApp;
  let proxy: DatabaseProxy;

  beforeAll(async () => {
    const url = new URL(process.env.DATABASE_URL!);
    proxy = new DatabaseProxy(url.hostname, Number(url.port || 5432));
    await proxy.open();
    url.hostname = '127.0.0.1';
    url.port = String(proxy.port);
    t = await startApp({ rateLimit: false, env: { DATABASE_URL: url.toString() } });
  });
  afterAll(async () => {
    await proxy.open().catch(() => undefined);
    await t.close();
    await proxy.close();
  });

  it('answers 503 E5001 with Retry-After while the database is unreachable, and 200 once it is back', async () => {
    const tenant = await createTenant(t);
    const list = () => t.http.get(tenant.path('/customers')).set(tenant.as('test'));
    const create = () => t.http.post(tenant.path('/customers')).set(tenant.as('test')).send({ name: 'Outage' });
    expect((await list()).status).toBe(200);

    await proxy.close();
    for (const res of [await list(), await create(), await list()]) {
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 503, code: 'E5001' });
      expectErrorObject(res.body, 'E5001');
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }

    await proxy.open();
    let back = await list();
    // The pool may still hand out a connection cut during the outage once; the next request gets a fresh one.
    for (let i = 0; i < 5 && back.status !== 200; i++) back = await list();
    expect(back.status).toBe(200);
    expect((await create()).status).toBe(200);
  });
});
