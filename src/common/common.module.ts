import { Global, type MiddlewareConsumer, Module, type NestModule } from '@nestjs/common';
import { Clock } from './clock.js';
import { RequestContext } from './context/request-context.js';
import { MetricsServer } from './observability/metrics-server.js';
import { Draining } from './lifecycle/draining.js';
import { HttpDrain } from './lifecycle/http-drain.js';
import { Metrics, MetricsController, MetricsMiddleware } from './observability/metrics.js';
import { AuthFailureThrottle } from './rate-limit/auth-failure-throttle.js';
import { InMemoryRateLimitStore, RateLimitStore } from './rate-limit/rate-limit.store.js';

@Global()
@Module({
  controllers: [MetricsController],
  providers: [
    RequestContext,
    Clock,
    Metrics,
    MetricsMiddleware,
    MetricsServer,
    Draining,
    HttpDrain,
    // The rate limits' counters: replace this provider with a shared store to count across replicas.
    { provide: RateLimitStore, useClass: InMemoryRateLimitStore },
    AuthFailureThrottle,
  ],
  exports: [RequestContext, Clock, Metrics, Draining, RateLimitStore, AuthFailureThrottle],
})
export class CommonModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(MetricsMiddleware).forRoutes('*');
  }
}
