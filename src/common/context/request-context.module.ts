import { Global, Module } from '@nestjs/common';
import { ClsService, ClsServiceManager } from 'nestjs-cls';

/**
 * nestjs-cls's ClsService (the request context's AsyncLocalStorage) for injection everywhere,
 * without `ClsModule.forRoot`. The context is entered by requestContextMiddleware, mounted by
 * createApp (request-store.ts says why not by ClsModule). ClsModule.forRoot also registers a global
 * guard and a global interceptor, which with `mount: false` do nothing, but a global interceptor,
 * even one that only calls `next.handle()`, puts every request of every route through Nest's rxjs
 * pipeline (defer, mergeAll, lastValueFrom, a ReplaySubject and two AsyncResource bindings).
 * Nothing else of ClsModule is used: no proxy providers, no plugins.
 */
@Global()
@Module({
  providers: [{ provide: ClsService, useValue: ClsServiceManager.getClsService() }],
  exports: [ClsService],
})
export class RequestContextModule {}
