import type { TraceHeaders, ReceiveAnswer, ReceiveArrival, ReceiveObservation } from '@hookgate/core';
import {
  context,
  isSpanContextValid,
  propagation,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
  type TextMapGetter,
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

const NOT_ANSWERED = Symbol('not answered');

/** The methods OpenTelemetry's conventions name; any other is `_OTHER` (bounded, as the conventions ask). */
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'CONNECT', 'TRACE']);

function httpMethod(method: string | undefined): string {
  return method !== undefined && KNOWN_METHODS.has(method) ? method : '_OTHER';
}

/** Reads a request's headers for the propagator: a `Headers` object, or a record in any case. */
const HEADERS: TextMapGetter<TraceHeaders> = {
  keys(headers) {
    if (typeof headers.get !== 'function') return Object.keys(headers);
    // A `Headers` lists its names by `forEach` (its iterators need a newer lib than ours).
    const names: string[] = [];
    (headers as Partial<Pick<Headers, 'forEach'>>).forEach?.((_value, name) => names.push(name));
    return names;
  },
  get(headers, key) {
    if (typeof headers.get === 'function') return (headers as Headers).get(key) ?? undefined;
    const record = headers as Record<string, string | readonly string[] | undefined>;
    const value = record[key] ?? Object.entries(record).find(([name]) => name.toLowerCase() === key)?.[1];
    return typeof value === 'string' ? value : (value?.slice() ?? undefined);
  },
};

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
  readonly #arrival: ReceiveArrival;
  /** The context at arrival: an HTTP server span of an instrumentation, when one is active. */
  readonly #active: Context;
  readonly #instruments: Instruments;
  readonly #exceptionMessages: boolean;
  /** `performance.now()` at the arrival (`receivedAt` is in whole milliseconds). */
  readonly #startedAt: number;
  /** A verified request's headers: its trace context is followed. */
  #headers: TraceHeaders | undefined;
  /** The answered message's type as metrics split it; `NOT_ANSWERED` until then. */
  #answeredType: string | undefined | typeof NOT_ANSWERED = NOT_ANSWERED;
  /** A handler's time, when it ended before the answer. */
  #handlerEnded: { seconds: number; attributes: Attributes } | undefined;
  /** Started on first use: by then the request's signature is known to match, or not. */
  #started: { span: Span; context: Context } | undefined;

  constructor(tracer: Tracer, instruments: Instruments, arrival: ReceiveArrival, exceptionMessages = false) {
    this.#tracer = tracer;
    this.#arrival = arrival;
    this.#active = context.active();
    this.#instruments = instruments;
    this.#exceptionMessages = exceptionMessages;
    this.#startedAt = performance.now() - Math.max(0, Date.now() - arrival.receivedAt);
  }

  verified(headers: TraceHeaders): void {
    this.#headers = headers;
  }

  /**
   * The span, started at the arrival's time: under the instrumentation's HTTP span when one is active
   * (INTERNAL), else a SERVER span continuing the request's trace context read through the global
   * propagator, for a verified request only (a forged one must not join or start anyone's trace).
   */
  get #span(): Span {
    return this.#start().span;
  }

  get #context(): Context {
    return this.#start().context;
  }

  #start(): { span: Span; context: Context } {
    if (this.#started !== undefined) return this.#started;
    const active = this.#active;
    const local = hasLocalSpan(active);
    const headers = this.#headers;
    const parent = local || headers === undefined ? active : propagation.extract(active, headers, HEADERS);
    const span = this.#tracer.startSpan(
      SPAN.receive,
      {
        kind: local ? SpanKind.INTERNAL : SpanKind.SERVER,
        startTime: this.#arrival.receivedAt,
        // The HTTP span of an instrumentation has them when there is one.
        attributes: local
          ? { [ATTR.destination]: this.#arrival.destination }
          : { [ATTR.destination]: this.#arrival.destination, [ATTR.httpMethod]: httpMethod(this.#arrival.method) },
      },
      parent,
    );
    this.#started = { span, context: trace.setSpan(parent, span) };
    return this.#started;
  }

  async handler<T>(run: () => Promise<T>): Promise<T> {
    const start = performance.now();
    const record = (attributes: Attributes) => this.#handlerTime((performance.now() - start) / 1000, attributes);
    try {
      const result = await context.with(this.#context, run);
      record({ [ATTR.handlerOutcome]: 'ok' });
      return result;
    } catch (error) {
      recordFailure(this.#span, error, this.#exceptionMessages);
      record({ [ATTR.handlerOutcome]: 'error', [ATTR.errorType]: errorType(error) });
      throw error;
    }
  }

  /**
   * Records the handler's time by outcome and message type. The type is known once the delivery is
   * answered: a handler that ended before (the usual order) is recorded then.
   */
  #handlerTime(seconds: number, attributes: Attributes): void {
    if (this.#answeredType === NOT_ANSWERED) {
      this.#handlerEnded = { seconds, attributes };
      return;
    }
    if (this.#answeredType !== undefined) attributes[ATTR.messageType] = this.#answeredType;
    this.#instruments.handlerDuration.record(seconds, attributes);
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
    this.#answeredType = type;
    const ended = this.#handlerEnded;
    if (ended !== undefined) this.#handlerTime(ended.seconds, ended.attributes);
    const answerAttributes: Attributes = { [ATTR.answerCode]: code, [ATTR.httpStatus]: status };
    if (type !== undefined) answerAttributes[ATTR.messageType] = type;
    const instruments = this.#instruments;
    instruments.answers.add(1, answerAttributes);
    instruments.receiverDuration.record((performance.now() - this.#startedAt) / 1000, answerAttributes);
    if (violations !== undefined) countViolations(instruments.planViolations, message, violations, planned);
  }
}
