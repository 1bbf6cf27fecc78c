/**
 * Whether the service exports traces (docs/OBSERVABILITY.md, "Traces"): only when an OTLP endpoint
 * is configured (`OTEL_EXPORTER_OTLP_ENDPOINT`, or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` for traces
 * alone) and `OTEL_SDK_DISABLED` is not `true`. Off, nothing of OpenTelemetry's SDK is loaded. The
 * other `OTEL_*` variables (service name, resource attributes, sampler, headers) are the SDK's own,
 * read by it as the OpenTelemetry specification defines them.
 */
export function tracingEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  if ((env.OTEL_SDK_DISABLED ?? '').toLowerCase() === 'true') return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

/** `OTEL_SERVICE_NAME`, else `wallet-service`. */
export function tracingServiceName(env: NodeJS.ProcessEnv = process.env): string {
  return env.OTEL_SERVICE_NAME || 'wallet-service';
}

/**
 * The SDK's other signals stay off unless asked for: metrics are Prometheus' (`/metrics`), logs are
 * standard output's. Without this the SDK would also push metrics over OTLP by default.
 */
export function applyTracingDefaults(env: NodeJS.ProcessEnv = process.env): void {
  env.OTEL_METRICS_EXPORTER ??= 'none';
  env.OTEL_LOGS_EXPORTER ??= 'none';
}
