import { Global, Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { DiscoveryModule } from '@nestjs/core';
import { RoutePermissions } from './auth/route-permissions.js';
import type { AllConfig } from '../config/app.config.js';
import { Clock } from './clock.js';
import { RequestContext } from './context/request-context.js';
import { MetricsServer } from './observability/metrics-server.js';
import { Draining } from './lifecycle/draining.js';
import { HttpDrain } from './lifecycle/http-drain.js';
import { Metrics, MetricsController } from './observability/metrics.js';
import { AuthFailureThrottle } from './rate-limit/auth-failure-throttle.js';
import { InMemoryRateLimitStore, RateLimitStore } from './rate-limit/rate-limit.store.js';
import { RedisRateLimitStore } from './rate-limit/redis-rate-limit.store.js';

@Global()
@Module({
  imports: [DiscoveryModule],
  controllers: [MetricsController],
  providers: [
    RequestContext,
    Clock,
    Metrics,
    MetricsServer,
    Draining,
    HttpDrain,
    // The rate limits' counters: in Redis (shared by the replicas) when REDIS_URL is set, else in this process.
    {
      provide: RateLimitStore,
      inject: [ConfigService],
      useFactory: (config: ConfigService<AllConfig, true>): RateLimitStore => {
        const { redisUrl, redisKeyPrefix, redisTimeoutMs } = config.get('app', { infer: true });
        return redisUrl
          ? new RedisRateLimitStore(redisUrl, redisKeyPrefix, redisTimeoutMs)
          : new InMemoryRateLimitStore();
      },
    },
    AuthFailureThrottle,
    RoutePermissions,
  ],
  exports: [RequestContext, Clock, Metrics, Draining, RateLimitStore, AuthFailureThrottle, RoutePermissions],
})
export class CommonModule {}
