import {
  context,
  isSpanContextValid,
  type Link,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
  TraceFlags,
} from '@opentelemetry/api';

/**
 * What the service's own code does with traces (docs/OBSERVABILITY.md, "Traces"). Tracing starts, or
 * not, before the server's modules load (`src/observability/tracing.ts`, when an OTLP endpoint is
 * configured); everything here asks `tracingOn()` first, so with tracing off it costs a boolean
 * test and no allocation.
 */
let on = false;

let flush: () => Promise<void> = () => Promise.resolve();

/** Called once by the tracing bootstrap after the SDK started, with how to flush and stop it. */
export function markTracingOn(shutdown: () => Promise<void>): void {
  on = true;
  flush = shutdown;
}

/** Sends the spans still buffered and stops the SDK (the server's last step before exiting); nothing with tracing off. */
export function shutdownTracing(): Promise<void> {
  return flush().catch(() => undefined);
}

export function tracingOn(): boolean {
  return on;
}

const tracer = () => trace.getTracer('wallet-service');

/** The W3C `traceparent` of the span under way, to store with what a later job continues (an event); null when none. */
export function currentTraceparent(): string | null {
  if (!on) return null;
  const span = trace.getActiveSpan();
  const ctx = span?.spanContext();
  if (!ctx || !isSpanContextValid(ctx)) return null;
  return `00-${ctx.traceId}-${ctx.spanId}-0${(ctx.traceFlags & TraceFlags.SAMPLED).toString(16)}`;
}

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** The most links one span takes (the SDK's default span limit): a batch of more causes links its first ones. */
const MAX_LINKS = 128;

/** Span links to stored `traceparent`s (one per distinct one), skipping absent or malformed ones. */
function linksTo(traceparents: ReadonlyArray<string | null | undefined>): Link[] {
  const links: Link[] = [];
  const seen = new Set<string>();
  for (const traceparent of traceparents) {
    if (links.length === MAX_LINKS) break;
    const m = traceparent && !seen.has(traceparent) ? TRACEPARENT.exec(traceparent) : null;
    if (!m) continue;
    seen.add(traceparent!);
    const spanContext = { traceId: m[1], spanId: m[2], traceFlags: Number.parseInt(m[3], 16), isRemote: true };
    if (isSpanContextValid(spanContext)) links.push({ context: spanContext });
  }
  return links;
}

/**
 * Links the span under way (e.g. a provider webhook's request) to the trace that caused what it
 * changes (the `traceparent` stored on the charge, refund or payout). Nothing with tracing off.
 */
export function linkActiveSpan(traceparent: string | null | undefined): void {
  if (!on || !traceparent) return;
  const span = trace.getActiveSpan();
  if (span) for (const link of linksTo([traceparent])) span.addLink(link);
}

/** The fields every log line gets while tracing is on: the trace and span under way. */
export function traceLogFields(): { trace_id?: string; span_id?: string } {
  const ctx = trace.getActiveSpan()?.spanContext();
  return ctx && isSpanContextValid(ctx) ? { trace_id: ctx.traceId, span_id: ctx.spanId } : {};
}

async function inSpan<T>(span: Span, work: () => Promise<T>): Promise<T> {
  try {
    return await context.with(trace.setSpan(context.active(), span), work);
  } catch (error) {
    span.recordException(error as Error);
    span.setStatus({ code: SpanStatusCode.ERROR });
    throw error;
  } finally {
    span.end();
  }
}

/**
 * Runs `work` in a new root span linked to the trace that caused it (the `traceparent` stored with
 * an event or an outbox row; several for a batch that continues several requests): a job's
 * continuation of a request, found from the request's trace by its link. With tracing off, just `work()`.
 */
export function withLinkedSpan<T>(
  name: string,
  traceparent: string | null | undefined | ReadonlyArray<string | null>,
  attributes: Record<string, string | number | boolean>,
  work: () => Promise<T>,
): Promise<T> {
  if (!on) return work();
  const span = tracer().startSpan(
    name,
    {
      root: true,
      kind: SpanKind.CONSUMER,
      links: linksTo(typeof traceparent === 'string' || traceparent == null ? [traceparent] : traceparent),
      attributes,
    },
    context.active(),
  );
  return inSpan(span, work);
}

const wrapped = new WeakMap<object, object>();

/**
 * The provider adapter with each method call in a span (`provider <kind>.<name> <method>`), so a
 * trace shows the call to the provider even where it makes no HTTP request (the sandboxes) and
 * around the HTTP client span where it does. With tracing off, the adapter itself.
 */
export function tracedProvider<P extends object>(kind: string, name: string, provider: P): P {
  if (!on) return provider;
  let proxy = wrapped.get(provider) as P | undefined;
  if (proxy) return proxy;
  proxy = new Proxy(provider, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== 'function' || typeof property !== 'string' || property === 'constructor') return value;
      return function (this: unknown, ...args: unknown[]) {
        const span = tracer().startSpan(`provider ${kind}.${name} ${property}`, {
          kind: SpanKind.CLIENT,
          attributes: {
            'wallet.provider.kind': kind,
            'wallet.provider.name': name,
            'wallet.provider.operation': property,
          },
        });
        const result = context.with(trace.setSpan(context.active(), span), () =>
          (value as (...a: unknown[]) => unknown).apply(this === proxy ? target : this, args),
        );
        if (result instanceof Promise) {
          return result.then(
            (v) => {
              span.end();
              return v;
            },
            (error: unknown) => {
              span.recordException(error as Error);
              span.setStatus({ code: SpanStatusCode.ERROR });
              span.end();
              throw error;
            },
          );
        }
        span.end();
        return result;
      };
    },
  });
  wrapped.set(provider, proxy);
  return proxy;
}
