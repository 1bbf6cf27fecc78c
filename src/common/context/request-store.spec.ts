import { AsyncLocalStorage } from 'node:async_hooks';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Request, Response } from 'express';
import { CLS_REQ, ClsService, type ClsStore } from 'nestjs-cls';
import { requestIdMiddleware } from '../http/request-id.js';
import { requestContextMiddleware } from './request-store.js';

/**
 * A real HTTP server and a real keep-alive client: the store set up for a request holds the request
 * while it runs, and only `{ id, method, url }` of it once the response is done, whatever still
 * holds the store (here the test itself, in the service the socket's keep-alive timer).
 */
describe('requestContextMiddleware', () => {
  it('gives each request a store of its own, and passes a setup failure to next()', () => {
    const cls = new ClsService(new AsyncLocalStorage());
    const middleware = requestContextMiddleware(cls);
    const stores: ClsStore[] = [];
    for (const id of ['req_a', 'req_b']) {
      const req = { headers: {}, method: 'POST', url: '/', id } as unknown as Request;
      const res = { once: () => undefined } as unknown as Response;
      middleware(req, res, (err?: unknown) => {
        expect(err).toBeUndefined();
        expect(cls.get(CLS_REQ)).toBe(req);
        stores.push(cls.get());
      });
    }
    expect(stores.map((s) => (s as { requestId?: string }).requestId)).toEqual(['req_a', 'req_b']);
    expect(cls.get('requestId')).toBeUndefined(); // outside any request's context
    const failing = { headers: {}, method: 'POST', url: '/', id: 'req_c' } as unknown as Request;
    const broken = {
      once: () => {
        throw new Error('no events');
      },
    } as unknown as Response;
    let passed: unknown;
    requestContextMiddleware(cls)(failing, broken, (err?: unknown) => (passed = err));
    expect((passed as Error).message).toBe('no events');
  });

  it('keeps the request while it runs and lets it go once the response is done', async () => {
    const cls = new ClsService(new AsyncLocalStorage());
    const seen: { during?: unknown; store?: ClsStore; req?: http.IncomingMessage; closed?: Promise<void> } = {};
    const server = http.createServer((req, res) => {
      // As in the service: the request id middleware first, then the context's middleware.
      requestIdMiddleware(req as Request, res as unknown as Response, () => undefined);
      requestContextMiddleware(cls)(req as Request, res as unknown as Response, () => {
        seen.store = cls.get();
        seen.req = req;
        seen.during = cls.get(CLS_REQ);
        seen.closed = new Promise((resolve) => res.once('close', () => setImmediate(resolve)));
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const agent = new http.Agent({ keepAlive: true });
    try {
      const { port } = server.address() as AddressInfo;
      await new Promise<void>((resolve, reject) =>
        http
          .get(
            {
              host: '127.0.0.1',
              port,
              path: '/v1/acme/meter_events?x=1',
              agent,
              headers: { 'x-request-id': 'req_keepalive_test' },
            },
            (res) => {
              res.resume();
              res.on('end', resolve);
            },
          )
          .on('error', reject),
      );
      await seen.closed;
      expect(seen.during).toBe(seen.req);
      const store = seen.store as ClsStore;
      expect(cls.get('requestId')).toBeUndefined(); // outside the request's context
      expect((store as { requestId?: string }).requestId).toBe('req_keepalive_test');
      expect(store[CLS_REQ]).not.toBe(seen.req);
      expect(store[CLS_REQ]).toEqual({
        id: 'req_keepalive_test',
        method: 'GET',
        url: '/v1/acme/meter_events?x=1',
        headers: {},
      });
    } finally {
      agent.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
