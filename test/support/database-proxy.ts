import net from 'node:net';

/**
 * A TCP proxy on loopback in front of the run's database, which the test can take down (every
 * connection cut, the port refusing) and bring back on the same port, or repoint at another
 * server (the "rw service" of a failover: the promoted standby).
 */
export class DatabaseProxy {
  private server?: net.Server;
  private readonly sockets = new Set<net.Socket>();
  port = 0;

  private constructor(private target: URL) {}

  /** A proxy, open, in front of the database at `databaseUrl`; `url` is the same database through it. */
  static async inFrontOf(databaseUrl: string): Promise<DatabaseProxy> {
    const proxy = new DatabaseProxy(new URL(databaseUrl));
    await proxy.open();
    return proxy;
  }

  /** The target database's URL with the proxy's address in place of the server's. */
  get url(): string {
    const url = new URL(this.target);
    url.hostname = '127.0.0.1';
    url.port = String(this.port);
    return url.toString();
  }

  /**
   * From now on new connections go to the server of `databaseUrl` (same database name); the open
   * ones, to the old target, are cut, as a Kubernetes Service's endpoints change on failover.
   */
  repoint(databaseUrl: string): void {
    const next = new URL(databaseUrl);
    next.pathname = this.target.pathname;
    this.target = next;
    for (const socket of this.sockets) socket.destroy();
  }

  async open(): Promise<void> {
    const server = net.createServer((client) => {
      const upstream = net.connect(Number(this.target.port || 5432), this.target.hostname);
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
