import type { ProcessedJob } from '@hookgate/core';
import { context, SpanKind, SpanStatusCode, trace, type Tracer } from '@opentelemetry/api';
import { ATTR, SPAN } from './names.js';
import { bounded, errorType, factAttributes, recordedException } from './recorded-values.js';
import { spanContextOf } from './trace-context.js';

/**
 * Runs one job attempt of a worker inside a `hookgate.process` span (CONSUMER), a child of the
 * receiver's `hookgate.receive` span when the job carries its trace context: every attempt, retries
 * included, joins the delivery's trace.
 *
 * @example
 * await processJob(tracer, { queue: 'webhooks', jobId: 'id-m1', attempt: 1, traceContext, message: {} }, run);
 */
export async function processJob<T>(tracer: Tracer, job: ProcessedJob, run: () => Promise<T>): Promise<T> {
  const remote = spanContextOf(job.traceContext);
  const parent = remote === undefined ? context.active() : trace.setSpanContext(context.active(), remote);
  const attributes: Record<string, string | number> = {
    ...factAttributes(job.message),
    [ATTR.messagingSystem]: 'bullmq',
    [ATTR.messagingOperation]: 'process',
    [ATTR.messagingDestination]: bounded(job.queue),
    [ATTR.jobAttempt]: job.attempt,
  };
  if (job.jobId !== undefined) attributes[ATTR.messagingMessageId] = bounded(job.jobId);
  const span = tracer.startSpan(SPAN.process, { kind: SpanKind.CONSUMER, attributes }, parent);
  try {
    return await context.with(trace.setSpan(parent, span), run);
  } catch (error) {
    span.recordException(recordedException(error));
    span.setStatus({ code: SpanStatusCode.ERROR, message: errorType(error) });
    throw error;
  } finally {
    span.end();
  }
}
