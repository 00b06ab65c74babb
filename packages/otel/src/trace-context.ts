// The trace context a receiver stores with a job, as a W3C `traceparent`
// (https://www.w3.org/TR/trace-context/#traceparent-header). Written here rather than through
// `propagation.inject`: the global propagator is a no-op until an SDK registers one, and a job must
// still join its delivery's trace when the providers were given to `openTelemetry()` directly.
import { isSpanContextValid, TraceFlags, type SpanContext } from '@opentelemetry/api';

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/**
 * A span context as a `traceparent` (version 00); undefined for an invalid context (no SDK).
 *
 * @example
 * traceparentOf(span.spanContext()); // '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01'
 */
export function traceparentOf(spanContext: SpanContext): string | undefined {
  if (!isSpanContextValid(spanContext)) return undefined;
  const flags = (spanContext.traceFlags & TraceFlags.SAMPLED).toString(16).padStart(2, '0');
  return `00-${spanContext.traceId}-${spanContext.spanId}-${flags}`;
}

/**
 * The remote span context a `traceparent` names; undefined when it is not one (or is all zeros).
 *
 * @example
 * const parent = spanContextOf(job.data.traceContext);
 */
export function spanContextOf(traceparent: string | undefined): SpanContext | undefined {
  if (typeof traceparent !== 'string') return undefined;
  const match = TRACEPARENT.exec(traceparent);
  if (match === null) return undefined;
  const spanContext: SpanContext = {
    traceId: match[1] as string,
    spanId: match[2] as string,
    traceFlags: Number.parseInt(match[3] as string, 16) & TraceFlags.SAMPLED,
    isRemote: true,
  };
  return isSpanContextValid(spanContext) ? spanContext : undefined;
}
