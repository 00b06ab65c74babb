import type { ReceiveAnswer, ReceiveArrival, ReceiveObservation } from '@hookgate/core';
import {
  context,
  isSpanContextValid,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import type { Instruments } from './instruments.js';
import { ATTR, SPAN } from './names.js';
import { countViolations } from './plan-violations.js';
import { errorType, factAttributes, metricType, recordedException } from './recorded-values.js';
import { traceparentOf } from './trace-context.js';

/** Whether a span of this process is active (an HTTP server span of Fastify's, Hono's or Node's instrumentation). */
function hasLocalSpan(active: Context): boolean {
  const spanContext = trace.getSpan(active)?.spanContext();
  return spanContext !== undefined && isSpanContextValid(spanContext) && spanContext.isRemote !== true;
}

/** Marks a span failed with a failure's type, and its message when asked (never its stack or fields). */
function recordFailure(span: Span, error: unknown, withMessage: boolean): void {
  span.recordException(recordedException(error, withMessage));
  span.setStatus({ code: SpanStatusCode.ERROR, message: errorType(error) });
}

/**
 * One delivery a receiver is answering, as a `hookgate.receive` span (SERVER, or INTERNAL under an
 * HTTP server span already active) and its metrics: the answer, the time to it, the handler's and
 * the queue's time, the plan's violations.
 *
 * @example
 * const observation = new ReceiveSpan(tracer, instruments(), { receivedAt: Date.now(), destination: 'classic' });
 * observation.answered({ code: 'ok', status: 200 });
 */
export class ReceiveSpan implements ReceiveObservation {
  readonly #tracer: Tracer;
  readonly #span: Span;
  readonly #context: Context;
  readonly #instruments: Instruments;
  readonly #exceptionMessages: boolean;
  /** `performance.now()` at the arrival (`receivedAt` is in whole milliseconds). */
  readonly #startedAt: number;

  constructor(tracer: Tracer, instruments: Instruments, arrival: ReceiveArrival, exceptionMessages = false) {
    const active = context.active();
    this.#tracer = tracer;
    this.#span = tracer.startSpan(
      SPAN.receive,
      {
        kind: hasLocalSpan(active) ? SpanKind.INTERNAL : SpanKind.SERVER,
        startTime: arrival.receivedAt,
        attributes: { [ATTR.destination]: arrival.destination },
      },
      active,
    );
    this.#context = trace.setSpan(active, this.#span);
    this.#instruments = instruments;
    this.#exceptionMessages = exceptionMessages;
    this.#startedAt = performance.now() - Math.max(0, Date.now() - arrival.receivedAt);
  }

  async handler<T>(run: () => Promise<T>): Promise<T> {
    const start = performance.now();
    const record = (attributes: Attributes) =>
      this.#instruments.handlerDuration.record((performance.now() - start) / 1000, attributes);
    try {
      const result = await context.with(this.#context, run);
      record({});
      return result;
    } catch (error) {
      recordFailure(this.#span, error, this.#exceptionMessages);
      record({ [ATTR.errorType]: errorType(error) });
      throw error;
    }
  }

  /**
   * A `hookgate.enqueue` span (PRODUCER) under the delivery's, around the store: the job carries its
   * context, so the worker's `hookgate.process` spans are its children (receive → enqueue → process).
   */
  async enqueue<T>(run: (traceContext: string | undefined) => Promise<T>): Promise<T> {
    const start = performance.now();
    const span = this.#tracer.startSpan(
      SPAN.enqueue,
      { kind: SpanKind.PRODUCER, attributes: { [ATTR.messagingOperation]: 'send' } },
      this.#context,
    );
    const record = (attributes: Attributes) =>
      this.#instruments.enqueueDuration.record((performance.now() - start) / 1000, attributes);
    try {
      const result = await context.with(trace.setSpan(this.#context, span), () =>
        run(traceparentOf(span.spanContext())),
      );
      record({});
      return result;
    } catch (error) {
      recordFailure(span, error, this.#exceptionMessages);
      record({ [ATTR.errorType]: errorType(error) });
      throw error;
    } finally {
      span.end();
    }
  }

  answered(answer: ReceiveAnswer): void {
    const { code, status, message, dedupe, violations, planned } = answer;
    const span = this.#span;
    const attributes: Attributes = factAttributes(message);
    attributes[ATTR.answerCode] = code;
    attributes[ATTR.httpStatus] = status;
    if (dedupe !== undefined) attributes[ATTR.dedupe] = dedupe;
    if (violations !== undefined) attributes[ATTR.planViolations] = violations.length;
    span.setAttributes(attributes);
    // 5xx: the sender retries. A handler's failure is recorded by `handler` already.
    if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR, message: code });
    span.end();

    const type = metricType(message?.type);
    const answerAttributes: Attributes = { [ATTR.answerCode]: code, [ATTR.httpStatus]: status };
    if (type !== undefined) answerAttributes[ATTR.messageType] = type;
    const instruments = this.#instruments;
    instruments.answers.add(1, answerAttributes);
    instruments.receiverDuration.record((performance.now() - this.#startedAt) / 1000, answerAttributes);
    if (violations !== undefined) countViolations(instruments.planViolations, message, violations, planned);
  }
}
