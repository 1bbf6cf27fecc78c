import { register } from 'node:module';
import { createAddHookMessageChannel } from 'import-in-the-middle';
import { markTracingOn } from './common/observability/trace-context.js';
import { applyTracingDefaults, tracingServiceName } from './config/tracing.config.js';

/**
 * OpenTelemetry tracing, started by `main.ts` before the server's modules load, only when an OTLP
 * endpoint is configured (docs/OBSERVABILITY.md, "Traces"). The service is ES modules, so the
 * instrumentations need import-in-the-middle's loader hook to see `pg`, `express` and `ioredis` as
 * they are imported; it is registered first, and the SDK starts before anything is imported.
 */
export async function startTracing(): Promise<void> {
  applyTracingDefaults();
  const { registerOptions, waitForAllMessagesAcknowledged } = createAddHookMessageChannel();
  register('import-in-the-middle/hook.mjs', import.meta.url, registerOptions);
  const [{ NodeSDK }, { OTLPTraceExporter }, http, express, pg, ioredis, undici] = await Promise.all([
    import('@opentelemetry/sdk-node'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/instrumentation-http'),
    import('@opentelemetry/instrumentation-express'),
    import('@opentelemetry/instrumentation-pg'),
    import('@opentelemetry/instrumentation-ioredis'),
    import('@opentelemetry/instrumentation-undici'),
  ]);
  const sdk = new NodeSDK({
    serviceName: tracingServiceName(),
    traceExporter: new OTLPTraceExporter(),
    instrumentations: [
      new http.HttpInstrumentation({
        // Probes and scrapes would be most of the spans and none of the questions.
        ignoreIncomingRequestHook: (req) => /^\/(healthz|readyz|metrics)\b/.test(req.url ?? ''),
      }),
      new express.ExpressInstrumentation(),
      // Statements with their text (parameters never: they hold account numbers and amounts), inside
      // a request's or a job's span only: the jobs' polling would otherwise be a root trace per query.
      new pg.PgInstrumentation({ enhancedDatabaseReporting: false, requireParentSpan: true }),
      new ioredis.IORedisInstrumentation({ requireParentSpan: true }),
      new undici.UndiciInstrumentation(),
    ],
  });
  sdk.start();
  // The server flushes the spans still buffered after draining, before it exits (server.ts).
  markTracingOn(() => sdk.shutdown());
  await waitForAllMessagesAcknowledged();
}
