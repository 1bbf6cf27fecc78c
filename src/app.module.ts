import { Module } from '@nestjs/common';
import { ConfigModule, ConfigService } from '@nestjs/config';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { CLS_REQ, ClsServiceManager } from 'nestjs-cls';
import { LoggerModule } from 'nestjs-pino';
import pino from 'pino';
import type { Request } from 'express';
import { AuthGuard } from './common/auth/auth.guard.js';
import { CommonModule } from './common/common.module.js';
import { RequestContextModule } from './common/context/request-context.module.js';
import { DatabaseModule } from './common/database/database.module.js';
import { ErrorFilter } from './common/errors/error.filter.js';
import { redactUrl } from './common/http/redact-url.js';
import { logsEachRequest } from './common/observability/access-log.js';
import { stdoutLogDestination } from './common/observability/log-destination.js';
import { traceLogFields, tracingOn } from './common/observability/trace-context.js';
import { requestIdOf } from './common/http/request-id.js';
import { IdempotencyGuard } from './common/idempotency/idempotency.guard.js';
import { IdempotencyModule } from './common/idempotency/idempotency.module.js';
import { PartitionsModule } from './common/database/partitions/partitions.module.js';
import { createValidationPipe } from './common/http/validation.js';
import { RateLimitGuard } from './common/rate-limit/rate-limit.guard.js';
import { TenancyGuard } from './common/tenancy/tenancy.guard.js';
import { type AllConfig, appConfig } from './config/app.config.js';
import { AccountsModule } from './modules/accounts/index.js';
import { ApplicationsModule } from './modules/applications/index.js';
import { AuditModule } from './modules/audit/index.js';
import { AuthModule } from './modules/auth/index.js';
import { CheckoutModule } from './modules/checkout/index.js';
import { CustomersModule } from './modules/customers/index.js';
import { ErrorsModule } from './modules/errors/errors.module.js';
import { EventsModule } from './modules/events/index.js';
import { HealthModule } from './modules/health/health.module.js';
import { LedgerModule } from './modules/ledger/index.js';
import { DisputesModule } from './modules/disputes/index.js';
import { RefundsModule } from './modules/refunds/index.js';
import { MeterModule } from './modules/meter/index.js';
import { BillingModule } from './modules/billing/index.js';
import { PayoutsModule } from './modules/payouts/index.js';
import { ProviderEventsModule } from './modules/provider-events/index.js';
import { FilesModule } from './modules/files/index.js';
import { ReconciliationModule } from './modules/reconciliation/index.js';
import { ReportingModule } from './modules/reporting/index.js';
import { SubscriptionsModule, TestClocksModule } from './modules/billing/subscriptions/index.js';
import { CreditModule } from './modules/billing/index.js';
import { InvoicingModule } from './modules/billing/invoicing/index.js';
import { InvoiceCollectionModule } from './modules/billing/collection/index.js';

export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["x-session-token"]',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'res.headers["x-session-token"]',
];

/** The request of the current context as a log binding, serialized like pino-http's `req`. */
function requestBinding(): { req?: unknown } {
  const cls = ClsServiceManager.getClsService();
  const req: unknown = cls.isActive() ? cls.get(CLS_REQ) : undefined;
  return req ? { req } : {};
}

@Module({
  imports: [
    ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, load: [appConfig] }),
    LoggerModule.forRootAsync({
      inject: [ConfigService],
      useFactory: (config: ConfigService<AllConfig, true>) => {
        const level = config.get('app.logLevel', { infer: true });
        const logFile = config.get('app.logFile', { infer: true });
        const perRequest = logsEachRequest(level);
        const options = {
          level,
          autoLogging: perRequest,
          genReqId: (req: unknown) => requestIdOf(req as Request),
          redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
          // Headers are left out (credentials); URLs keep their path and non-secret parameters, and
          // a redirect's Location (an OAuth code) is logged with its secrets masked.
          serializers: {
            req: (req: { id: string; method: string; url: string }) => ({
              id: req.id,
              method: req.method,
              url: redactUrl(req.url),
            }),
            res: (res: { statusCode: number; headers?: Record<string, unknown> }) => {
              const location = res.headers?.location;
              return {
                statusCode: res.statusCode,
                ...(typeof location === 'string' ? { location: redactUrl(location) } : {}),
              };
            },
          },
          // With tracing on, every line also names the trace and span under way (trace_id, span_id).
          ...(tracingOn()
            ? { mixin: perRequest ? traceLogFields : () => ({ ...requestBinding(), ...traceLogFields() }) }
            : perRequest
              ? {}
              : { mixin: requestBinding }),
        };
        return {
          // Mounted on no route as module middleware: at info and below createApp mounts the same
          // middleware with `app.use` (accessLogMiddleware says why). Above info, no per-request
          // logging work at all: pino-http is not mounted (its child logger, request/response
          // properties and async context cost ~10% of a request's CPU), and a line logged while a
          // request runs takes the same `req` binding from the request context instead (the mixin above).
          forRoutes: [],
          // LOG_FILE: appended synchronously, so a reader (the tests' secret scan) sees every line once the app is closed.
          // Standard output: in batches (stdoutLogDestination says why and what a kill can lose).
          pinoHttp: [
            options,
            logFile ? pino.destination({ dest: logFile, sync: true, mkdir: true }) : stdoutLogDestination(),
          ],
        };
      },
    }),
    // The request context's ClsService; its middleware is mounted by createApp (requestContextMiddleware).
    RequestContextModule,
    CommonModule,
    DatabaseModule.forRoot(),
    IdempotencyModule,
    PartitionsModule,
    // First among the feature modules: routes are registered in this order and Express tries a
    // request against each earlier route in turn, so the hottest path (single meter events) is
    // matched before the other modules' routes (docs/ARCHITECTURE.md, "The hot path").
    MeterModule,
    // Before CheckoutModule (which it imports, so it is registered first): its GET /invoices/upcoming
    // must be tried before the invoice resource's GET /invoices/{id}.
    InvoicingModule,
    EventsModule,
    AuditModule,
    ApplicationsModule,
    AccountsModule,
    AuthModule,
    ErrorsModule,
    HealthModule,
    CustomersModule,
    FilesModule,
    ReportingModule,
    ReconciliationModule,
    LedgerModule,
    DisputesModule,
    RefundsModule,
    TestClocksModule,
    SubscriptionsModule,
    CreditModule,
    PayoutsModule,
    ProviderEventsModule,
    CheckoutModule,
    InvoiceCollectionModule,
    BillingModule,
  ],
  providers: [
    { provide: APP_FILTER, useClass: ErrorFilter },
    { provide: APP_PIPE, useFactory: createValidationPipe },
    { provide: APP_GUARD, useClass: TenancyGuard },
    { provide: APP_GUARD, useClass: AuthGuard },
    { provide: APP_GUARD, useClass: RateLimitGuard },
    // Last: a key is claimed only for a request every other guard let through.
    { provide: APP_GUARD, useClass: IdempotencyGuard },
  ],
})
export class AppModule {}
