// The `telemetry` option's contract, as BullMQ's `Telemetry` interface is to `bullmq-otel`: core
// calls it and depends on nothing for it; `@hookgate/otel` implements it on OpenTelemetry. Everything
// handed over here may be recorded: never a secret, signature, write key, body, trait or property.

/**
 * What a receiver, a worker (`@hookgate/bullmq`'s `createWorker`) and the emulator report through
 * their `telemetry` option: each delivery a receiver answers, each job a worker runs, each attempt
 * the emulator makes. `openTelemetry()` from `@hookgate/otel` implements it; without the option
 * nothing is reported and nothing is loaded.
 *
 * @example
 * import { createReceiver } from '@hookgate/core';
 * import { openTelemetry } from '@hookgate/otel';
 * const receiver = createReceiver({ secret, telemetry: openTelemetry(), on: { track: (msg) => save(msg) } });
 */
export interface Telemetry {
  /** A request reached a receiver: the returned observation follows it until it is answered. */
  receive(arrival: ReceiveArrival): ReceiveObservation;
  /**
   * A worker runs one job's handler: `run` is called in the job's trace (continued from the
   * `traceContext` the receiver stored with it), given the attempt's observation, and its result or
   * failure passed on.
   */
  process<T>(job: ProcessedJob, run: (observation: ProcessObservation) => Promise<T>): Promise<T>;
  /** The emulator made one delivery attempt (reported once it ended). */
  deliver(attempt: DeliveryAttemptReport): void;
}

/**
 * A request's arrival at a receiver.
 *
 * @example
 * const observation = telemetry.receive({ receivedAt: Date.now(), destination: 'classic', method: 'POST' });
 */
export interface ReceiveArrival {
  /** `Date.now()` when the request arrived (reading the body counts towards the answer's time). */
  receivedAt: number;
  /** Which destination's receiver: `classic` (Webhooks) or `actions` (Webhooks (Actions)). */
  destination: 'classic' | 'actions';
  /** The request's method (`POST`; Actions also PUT and PATCH), as the client sent it. */
  method: string;
}

/**
 * One delivery a receiver is answering.
 *
 * @example
 * const answer = await observation.handler(() => handler(message, context));
 * observation.answered({ code: 'ok', status: 200 });
 */
export interface ReceiveObservation {
  /** Runs the handler inside this delivery's trace, timing it; its result or failure is passed on. */
  handler<T>(run: () => Promise<T>): Promise<T>;
  /**
   * Runs `enqueue` inside this delivery's trace, timing it. `traceContext` is this delivery's trace
   * context as text (a W3C `traceparent` with `@hookgate/otel`), to store with the job so a worker's
   * `process` continues the same trace.
   */
  enqueue<T>(run: (traceContext: string | undefined) => Promise<T>): Promise<T>;
  /**
   * The request's signature matched: `headers` are the request's, so its trace context (a
   * `traceparent`) may be followed. Never called for a refused or unsigned request, which must not
   * join or start anyone's trace. Called at most once, before `handler`, `enqueue` and `answered`. The
   * headers come as the receiver got them: a Fetch `Headers`, or a record of names to values.
   */
  verified?(headers: TraceHeaders): void;
  /** The delivery was answered: ends the observation. Called once. */
  answered(answer: ReceiveAnswer): void;
}

/**
 * What a receiver answered, and what it knew of the message by then (nothing of a request refused
 * before its signature was verified).
 *
 * @example
 * const answer: ReceiveAnswer = { code: 'duplicate', status: 200, message: { type: 'track', messageId: 'm1', event: 'Order Completed' }, dedupe: 'duplicate' };
 */
export interface ReceiveAnswer {
  /**
   * The status table's code, a `ReceiverCode` (`ok`, `invalid_signature`, `duplicate`, …), or
   * `client_closed` (status 499, nginx's) when the client went away before its body ended.
   */
  code: string;
  status: number;
  /** The verified message's type, `messageId` and (track) event; absent before verification or for a batch. */
  message?: MessageFacts;
  /** What the dedupe store said: a `new` claim, a `duplicate` of a handled message, or `in_flight`. Absent without a store or before the claim. */
  dedupe?: 'new' | 'duplicate' | 'in_flight';
  /** The tracking plan's violations (`trackingPlan`), each by the rule broken; absent when the message was not checked. */
  violations?: readonly PlanViolationFacts[];
  /**
   * Whether the tracking plan has a rule for the message (a track's event is a planned name); absent
   * when the message was not checked. Metrics name only planned events: any other is `(unplanned)`.
   */
  planned?: boolean;
}

/**
 * The three fields of a message telemetry may record: never its traits, properties or context.
 *
 * @example
 * const facts: MessageFacts = { type: 'track', messageId: 'm1', event: 'Order Completed' };
 */
export interface MessageFacts {
  type?: string;
  messageId?: string;
  /** A track message's event name. */
  event?: string;
}

/**
 * A violation of the tracking plan as telemetry sees it: the rule broken and the JSON Schema keyword,
 * never the value.
 *
 * @example
 * const facts: PlanViolationFacts = { rule: 'TRACK "Order Completed" v1', keyword: 'type' };
 */
export interface PlanViolationFacts {
  /** The rule broken, e.g. `TRACK "Order Completed" v2`; absent for an unplanned event. */
  rule?: string;
  keyword: string;
}

/**
 * A job a worker is running.
 *
 * @example
 * await telemetry.process({ queue: 'webhooks', jobId: 'id-m1', attempt: 1, traceContext, message: { type: 'track' } }, run);
 */
export interface ProcessedJob {
  queue: string;
  jobId: string | undefined;
  /** 1 for the first attempt, 2 for the first retry, … */
  attempt: number;
  /** What the receiver's observation gave `enqueue` (stored in the job); undefined when none. */
  traceContext: string | undefined;
  message: MessageFacts;
}

/**
 * One job attempt a worker is running.
 *
 * @example
 * await telemetry.process(job, async (observation) => {
 *   observation.violations(context.violations);
 *   await handler(message, context);
 * });
 */
export interface ProcessObservation {
  /**
   * The worker's tracking plan checked the message (`trackingPlan`): its violations, empty when none,
   * and whether the plan has a rule for it (`ctx.planned`).
   */
  violations(found: readonly PlanViolationFacts[], planned?: boolean): void;
}

/**
 * One delivery attempt of the emulator, once it ended.
 *
 * @example
 * telemetry.deliver({ endpoint: 'https://example.com/hook?token=***', attempt: 1, startedAt, durationMs: 12, status: 200, outcome: 'delivered', message: { type: 'track' } });
 */
export interface DeliveryAttemptReport {
  /** The endpoint URL with its password and query values masked. */
  endpoint: string;
  /** 1 for the first round, 2 for the first retry, … */
  attempt: number;
  /** `Date.now()` when the request started. */
  startedAt: number;
  durationMs: number;
  /** The answer's status, when an answer came. */
  status?: number;
  /** The kind of failure (`timeout`, `connection`, `http`, …); absent on a 2xx. */
  errorCode?: string;
  /**
   * `delivered`; `retry` (a next round is due); `fail` (given up for this endpoint: refused for good,
   * or its last round before the retry window closed); `not-retried` (another endpoint accepted the
   * message). A retryable failure is reported once its round is over, when this is known.
   */
  outcome: 'delivered' | 'retry' | 'fail' | 'not-retried';
  message: MessageFacts;
}

/**
 * A request's headers as `ReceiveObservation.verified` gets them, in either shape a receiver is given
 * (telemetry reads them without the receiver's own header helpers, which sit a layer above).
 *
 * @example
 * const headers: TraceHeaders = { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' };
 */
export type TraceHeaders =
  { get(name: string): string | null } | Readonly<Record<string, string | readonly string[] | undefined>>;
