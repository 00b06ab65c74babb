import {
  MESSAGE_TYPES,
  type MessageOf,
  type MessageType,
  type StandardSchemaV1,
  type Telemetry,
  type WebhookMessage,
  type PlanHandlers,
  type ViolationHandler,
} from '@hookgate/core';
import { checkTelemetry } from '@hookgate/core/internal';
import { Worker, type ConnectionOptions, type WorkerOptions } from 'bullmq';
import { ACTIONS_WORKER_OWN_OPTIONS, actionsJobRunner, type ActionsWorkerOptions } from './actions-worker.js';
import { jobContextOf, type JobContext, type JobHandler } from './job-context.js';
import { reportViolations, withTelemetry, type JobProcessor } from './job-telemetry.js';
import type { HandoffJobData } from './job-data.js';
import { checkJobDestination } from './job-destination.js';
import { planned, settleWorkerPlan } from './job-plan.js';

/**
 * Handlers per message type, each narrowed: the same `on` shape as a receiver's.
 *
 * @example
 * const on: JobHandlers = { track: (msg) => console.log(msg.event), delete: (msg) => erase(msg.userId) };
 * createWorker('webhooks', { connection, on });
 */
export type JobHandlers = { [T in MessageType]?: JobHandler<MessageOf<T>> };

/**
 * Options of `createWorker`: handlers, plus BullMQ's worker options (`concurrency`, `lockDuration`,
 * `limiter`, …) passed on as they are.
 *
 * @example
 * const options: CreateWorkerOptions = { connection: { host: '127.0.0.1', port: 6379 }, concurrency: 10, onMessage: (msg) => console.log(msg.type) };
 * const worker = createWorker('webhooks', options);
 */
export interface CreateWorkerOptions<M = WebhookMessage, TPlan = unknown> extends Omit<
  WorkerOptions,
  'connection' | 'telemetry'
> {
  /** Jobs from a classic Webhooks receiver (the default); for Webhooks (Actions) jobs see `ActionsWorkerOptions`. */
  destination?: 'classic';
  /** The Redis connection (BullMQ's: options or an ioredis instance). */
  connection: ConnectionOptions;
  /** Handlers per message type; with `trackingPlan`, `on.track` may be keyed by event name (`'*'` for the rest). */
  on?: PlanHandlers<NoInfer<TPlan>, JobHandlers, JobContext>;
  /**
   * Segment tracking plan, compiled by `compileTrackingPlan` (`@hookgate/plans`), as a receiver takes it:
   * each job's message is checked against it before its handler runs (`ctx.violations`, `ctx.planned`).
   * A violating message still runs its handler unless `onViolation` is given.
   */
  trackingPlan?: TPlan;
  /** Runs instead of the handler for a message that breaks `trackingPlan`; throwing fails the attempt (retried). */
  onViolation?: ViolationHandler<JobContext>;
  /** Catch-all: runs for a type without its own handler in `on`. `M` is the classic message by default. */
  onMessage?: JobHandler<M>;
  /**
   * Reports each job attempt (a `hookgate.process` span with `openTelemetry()` from `@hookgate/otel`,
   * in the trace of the delivery that stored the job when the receiver had the same `telemetry`).
   * hookgate's `Telemetry`, not BullMQ's own (`bullmq-otel` goes on your `Queue`).
   */
  telemetry?: Telemetry;
}

const WORKER_OWN_OPTIONS = new Set([
  'destination',
  'on',
  'onMessage',
  'trackingPlan',
  'onViolation',
  'telemetry',
  ...ACTIONS_WORKER_OWN_OPTIONS,
]);

/**
 * Starts a BullMQ worker that runs typed handlers for the messages `enqueueTo` stored. A handler that
 * throws fails the attempt: BullMQ retries it with the job's backoff, and after the last attempt the
 * job stays in the failed set with its error (re-run it with `job.retry()`). A message without a
 * handler (keyed `on.track` included) completes without running anything but `onViolation`, which
 * runs for every message that breaks the plan. Processing is at least once: a worker that dies
 * mid-job leaves it to be taken again once its lock expires, so write idempotently on `ctx.dedupeKey`.
 * With `trackingPlan` (the receiver in `enqueue` mode takes none), the worker checks each message
 * against it before its handler runs, exactly as a receiver does: `ctx.violations`, `ctx.planned`,
 * `on.track` keyed by event name, `onViolation` instead of the handler.
 *
 * @example
 * import { createWorker } from '@hookgate/bullmq';
 *
 * const worker = createWorker('webhooks', {
 *   connection: { host: '127.0.0.1', port: 6379 },
 *   concurrency: 10,
 *   on: { track: async (msg, ctx) => saveEvent(ctx.dedupeKey, msg.event) },
 * });
 * process.on('SIGTERM', () => void worker.close());
 */
export function createWorker<M = WebhookMessage, TPlan = unknown>(
  queueName: string,
  options: CreateWorkerOptions<M, TPlan>,
): Worker<HandoffJobData<M>>;
/**
 * Starts a BullMQ worker for the jobs a Webhooks (Actions) receiver stored (`destination: 'actions'`,
 * `enqueue: enqueueTo(queue)`): `on` gets whole Segment events typed as the Segment Spec, `onPayload`
 * every other payload, typed and checked by `schema` (any Standard Schema) when given. A classic job
 * fails naming the mismatch; a payload `on` or `schema` refuses fails with the field named (no retry,
 * kept in the failed set); a handler that throws is retried as in the classic worker.
 *
 * @example
 * import { createWorker } from '@hookgate/bullmq';
 *
 * const worker = createWorker('segment-actions', {
 *   destination: 'actions',
 *   connection: { host: '127.0.0.1', port: 6379 },
 *   on: { track: async (event, ctx) => saveEvent(ctx.dedupeKey, event.event, event.properties) },
 *   onPayload: (payload) => console.log('mapped payload', payload),
 * });
 */
export function createWorker<S extends StandardSchemaV1 | undefined = undefined, TPlan = unknown>(
  queueName: string,
  options: ActionsWorkerOptions<S, TPlan>,
): Worker<HandoffJobData<unknown>>;
export function createWorker<M = WebhookMessage>(
  queueName: string,
  given: CreateWorkerOptions<M> | ActionsWorkerOptions<StandardSchemaV1 | undefined>,
): Worker<HandoffJobData<M>> {
  if (typeof queueName !== 'string' || queueName.length === 0) {
    throw new TypeError(
      `createWorker(queueName, options): queueName must be the name of the queue given to enqueueTo's Queue, e.g. 'webhooks'; got ${JSON.stringify(queueName)}.`,
    );
  }
  if (given === null || typeof given !== 'object') {
    throw new TypeError(
      "createWorker(queueName, options) needs options, e.g. { connection: { host: '127.0.0.1', port: 6379 }, on: { track: (msg) => … } }.",
    );
  }
  // With a tracking plan, `on.track` keyed by event name is one handler from here on.
  const { options, plan } = settleWorkerPlan(given);
  if (options.connection == null) {
    throw new TypeError(
      "createWorker: connection is required (BullMQ's Redis connection), e.g. { host: '127.0.0.1', port: 6379 }.",
    );
  }
  const destination = (options as { destination?: unknown }).destination;
  if (destination !== undefined && destination !== 'classic' && destination !== 'actions') {
    throw new TypeError(
      `createWorker: destination must be 'classic' (the default) or 'actions' (jobs from a Webhooks (Actions) receiver); got ${JSON.stringify(destination)}.`,
    );
  }
  const telemetry = checkTelemetry((options as { telemetry?: unknown }).telemetry, 'createWorker');
  // The worker over a processor, reporting each attempt to `telemetry` when given.
  const start = (processor: JobProcessor<M>) =>
    new Worker<HandoffJobData<M>>(
      queueName,
      withTelemetry(telemetry, queueName, processor),
      workerOptions as unknown as WorkerOptions,
    );
  const workerOptions: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(options)) if (!WORKER_OWN_OPTIONS.has(name)) workerOptions[name] = value;
  if (destination === 'actions') {
    const run = actionsJobRunner(options as ActionsWorkerOptions<StandardSchemaV1 | undefined>, plan);
    const processor: JobProcessor<M> = async (job, _token, signal, observation) => {
      checkJobDestination(job.data.destination, 'actions', job.id);
      const context = jobContextOf(job, signal);
      try {
        await run(job.data.message, context);
      } finally {
        if (plan !== undefined) reportViolations(observation, context);
      }
    };
    return start(processor);
  }

  const { on, onMessage } = options as { on?: Record<string, unknown>; onMessage?: JobHandler<M> };
  for (const name of ['onPayload', 'schema'] as const) {
    if ((options as unknown as Record<string, unknown>)[name] !== undefined) {
      throw new TypeError(
        `createWorker: ${name} is for jobs from a Webhooks (Actions) receiver; add destination: 'actions' (or, for classic jobs, use on / onMessage).`,
      );
    }
  }
  if (on == null && onMessage == null) {
    throw new TypeError(
      'createWorker: give handlers in `on` (per message type) or `onMessage`; without them every job would complete unprocessed.',
    );
  }
  if (on != null) {
    for (const [type, handler] of Object.entries(on)) {
      if (!(MESSAGE_TYPES as readonly string[]).includes(type)) {
        throw new TypeError(`createWorker: on.${type} is not a message type; use one of ${MESSAGE_TYPES.join(', ')}.`);
      }
      if (handler != null && typeof handler !== 'function')
        throw new TypeError(`createWorker: on.${type} must be a function (msg, ctx) => …`);
    }
  }
  if (onMessage != null && typeof onMessage !== 'function')
    throw new TypeError('createWorker: onMessage must be a function (msg, ctx) => …');

  const processor: JobProcessor<M> = async (job, _token, signal, observation) => {
    checkJobDestination(job.data.destination, 'classic', job.id);
    const message = job.data.message;
    const type = (message as { type?: unknown } | null)?.type;
    const handler =
      (typeof type === 'string' ? (on as Record<string, JobHandler<M> | undefined> | undefined)?.[type] : undefined) ??
      onMessage;
    const context = jobContextOf(job, signal);
    const run = planned(plan, message, handler, context);
    if (plan !== undefined) reportViolations(observation, context);
    await run?.(message, context);
  };
  return start(processor);
}
