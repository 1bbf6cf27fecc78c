import { Global, type MiddlewareConsumer, Module, type NestModule } from '@nestjs/common';
import { Clock } from './clock.js';
import { RequestContext } from './context/request-context.js';
import { MetricsServer } from './observability/metrics-server.js';
import { Draining } from './lifecycle/draining.js';
import { HttpDrain } from './lifecycle/http-drain.js';
import { Metrics, MetricsController, MetricsMiddleware } from './observability/metrics.js';

@Global()
@Module({
  controllers: [MetricsController],
  providers: [RequestContext, Clock, Metrics, MetricsMiddleware, MetricsServer, Draining, HttpDrain],
  exports: [RequestContext, Clock, Metrics, Draining],
})
export class CommonModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(MetricsMiddleware).forRoutes('*');
  }
}
