import { MESSAGE_TYPES, type MessageOf, type MessageType, type Verification, type WebhookMessage } from '@hookgate/core';
import { Worker, type ConnectionOptions, type Job, type WorkerOptions } from 'bullmq';
import type { HandoffJobData } from './job-data.js';

/**
 * What a worker's handler receives beside the message.
 *
 * @example
 * const onTrack = async (msg: TrackMessage, ctx: JobContext) => {
 *   // at-least-once: write idempotently, keyed by the dedupe key
 *   await db.upsert('events', { id: ctx.dedupeKey, event: msg.event });
 * };
 */
export interface JobContext {
  /** The BullMQ job (its id, `attemptsMade`, `log()`, `updateProgress()`). */
  job: Job<HandoffJobData>;
  /** The receiver's dedupe key: the key for idempotent writes (a job can run more than once). */
  dedupeKey: string;
  /** 1 on the first run, 2 on the first retry, … */
  attempt: number;
  /** When the request reached the receiver. */
  receivedAt: Date;
  /** Which body form and which secret index verified the message. */
  verification: Verification;
  /** The exact signed text, when the receiver used `enqueueTo(queue, { includeSignedBody: true })`. */
  signedBody: string | undefined;
  /** Fires when BullMQ cancels the job (e.g. the worker closes with force). */
  signal: AbortSignal;
}

/**
 * A worker's handler for one message type; throwing fails the attempt (BullMQ retries it).
 *
 * @example
 * const onIdentify: JobHandler<IdentifyMessage> = (msg, ctx) => crm.upsert(msg.userId, msg.traits, { key: ctx.dedupeKey });
 */
export type JobHandler<M> = (message: M, context: JobContext) => unknown;

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
export interface CreateWorkerOptions<M = WebhookMessage> extends Omit<WorkerOptions, 'connection'> {
  /** The Redis connection (BullMQ's: options or an ioredis instance). */
  connection: ConnectionOptions;
  /** Handlers per message type. */
  on?: JobHandlers;
  /**
   * Catch-all: runs for a type without its own handler in `on`. `M` is the classic message by default;
   * for jobs from an Actions receiver (`destination: 'actions'`) give the payload type you map to.
   */
  onMessage?: JobHandler<M>;
}

const NEVER = new AbortController().signal;
const WORKER_OWN_OPTIONS = new Set(['on', 'onMessage']);

/**
 * Starts a BullMQ worker that runs typed handlers for the messages `enqueueTo` stored. A handler that
 * throws fails the attempt: BullMQ retries it with the job's backoff, and after the last attempt the
 * job stays in the failed set with its error (re-run it with `job.retry()`). A message without a
 * handler completes without running anything. Processing is at least once: a worker that dies
 * mid-job leaves it to be taken again once its lock expires, so write idempotently on `ctx.dedupeKey`.
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
export function createWorker<M = WebhookMessage>(queueName: string, options: CreateWorkerOptions<M>): Worker<HandoffJobData<M>> {
  if (typeof queueName !== 'string' || queueName.length === 0) {
    throw new TypeError(`createWorker(queueName, options): queueName must be the name of the queue given to enqueueTo's Queue, e.g. 'webhooks'; got ${JSON.stringify(queueName)}.`);
  }
  if (options === null || typeof options !== 'object') {
    throw new TypeError("createWorker(queueName, options) needs options, e.g. { connection: { host: '127.0.0.1', port: 6379 }, on: { track: (msg) => … } }.");
  }
  if (options.connection == null) {
    throw new TypeError("createWorker: connection is required (BullMQ's Redis connection), e.g. { host: '127.0.0.1', port: 6379 }.");
  }
  const { on, onMessage } = options;
  if (on == null && onMessage == null) {
    throw new TypeError('createWorker: give handlers in `on` (per message type) or `onMessage`; without them every job would complete unprocessed.');
  }
  if (on != null) {
    for (const [type, handler] of Object.entries(on)) {
      if (!(MESSAGE_TYPES as readonly string[]).includes(type)) {
        throw new TypeError(`createWorker: on.${type} is not a message type; use one of ${MESSAGE_TYPES.join(', ')}.`);
      }
      if (handler != null && typeof handler !== 'function') throw new TypeError(`createWorker: on.${type} must be a function (msg, ctx) => …`);
    }
  }
  if (onMessage != null && typeof onMessage !== 'function') throw new TypeError('createWorker: onMessage must be a function (msg, ctx) => …');

  const workerOptions: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(options)) if (!WORKER_OWN_OPTIONS.has(name)) workerOptions[name] = value;

  const processor = async (job: Job<HandoffJobData<M>>, _token?: string, signal?: AbortSignal): Promise<void> => {
    const data = job.data;
    const message = data.message;
    const type = (message as { type?: unknown } | null)?.type;
    const handler = ((typeof type === 'string' ? (on as Record<string, JobHandler<M> | undefined> | undefined)?.[type] : undefined) ?? onMessage) as
      | JobHandler<M>
      | undefined;
    if (handler === undefined) return;
    await handler(message, {
      job: job as unknown as Job<HandoffJobData>,
      dedupeKey: data.dedupeKey,
      attempt: job.attemptsMade + 1,
      receivedAt: new Date(data.receivedAt),
      verification: data.verification,
      signedBody: data.signedBody,
      signal: signal ?? NEVER,
    });
  };
  return new Worker<HandoffJobData<M>>(queueName, processor, workerOptions as unknown as WorkerOptions);
}
