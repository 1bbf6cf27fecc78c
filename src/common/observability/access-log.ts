import type { INestApplication, MiddlewareConsumer } from '@nestjs/common';
import type { RequestHandler } from 'express';
import { LoggerModule } from 'nestjs-pino';

/** Whether the log has one access line per request (pino-http), which it has at `info` and below. */
export function logsEachRequest(level: string): boolean {
  return level === 'info' || level === 'debug' || level === 'trace';
}

/**
 * nestjs-pino's request middleware (pino-http's access line, then the binding of request-time log
 * lines to the request), for createApp to mount with `app.use` after the request timer, where
 * LoggerModule would have mounted them as Nest module middleware (which app.module turns off with
 * `forRoutes: []`). The same two functions, in the same order, for every request.
 *
 * Why not as module middleware: Nest mounts each on a path pattern (path-to-regexp matched on every
 * request, and Express's prefix trimming), wraps each in its exceptions proxy, and remembers every
 * request it has run in a WeakSet per middleware: the cost requestContextMiddleware already avoids
 * for the request context (that WeakSet's growth and rebuilding stall the event loop under load).
 * LoggerModule's own `configure` builds them; it is called here with a consumer that keeps them.
 */
export function accessLogMiddleware(app: INestApplication): RequestHandler[] {
  let middleware: RequestHandler[] = [];
  const consumer = {
    apply: (...handlers: RequestHandler[]) => {
      const routes = {
        forRoutes: () => {
          middleware = handlers;
          return consumer;
        },
        exclude: () => routes,
      };
      return routes;
    },
  };
  app.get(LoggerModule, { strict: false }).configure(consumer as unknown as MiddlewareConsumer);
  if (middleware.length === 0) throw new Error('LoggerModule configured no request middleware');
  return middleware;
}
