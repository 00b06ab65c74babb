import type { ProcessedJob, ProcessObservation } from '@hookgate/core';
import { context, SpanKind, SpanStatusCode, trace, type Tracer } from '@opentelemetry/api';
import type { Instruments } from './instruments.js';
import { countViolations } from './plan-violations.js';
import { ATTR, SPAN } from './names.js';
import { bounded, errorType, factAttributes, recordedException } from './recorded-values.js';
import { spanContextOf } from './trace-context.js';

/**
 * Runs one job attempt of a worker inside a `hookgate.process` span (CONSUMER), a child of the
 * receiver's `hookgate.receive` span when the job carries its trace context: every attempt, retries
 * included, joins the delivery's trace. The worker's tracking-plan violations go on the span (a count)
 * and into `hookgate.plan.violations`.
 *
 * @example
 * await processJob(tracer, instruments, { queue: 'webhooks', jobId: 'id-m1', attempt: 1, traceContext, message: {} }, run);
 */
export async function processJob<T>(
  tracer: Tracer,
  instruments: () => Instruments,
  job: ProcessedJob,
  run: (observation: ProcessObservation) => Promise<T>,
  exceptionMessages = false,
): Promise<T> {
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
  const observation: ProcessObservation = {
    violations(found, planned) {
      span.setAttribute(ATTR.planViolations, found.length);
      countViolations(instruments().planViolations, job.message, found, planned);
    },
  };
  try {
    return await context.with(trace.setSpan(parent, span), () => run(observation));
  } catch (error) {
    span.recordException(recordedException(error, exceptionMessages));
    span.setStatus({ code: SpanStatusCode.ERROR, message: errorType(error) });
    throw error;
  } finally {
    span.end();
  }
}
