import type { EnqueueHandoff, Handoff } from '@hookgate/core';
import type { JobsOptions, Queue } from 'bullmq';
import type { HandoffJobData } from './job-data.js';
import { jobIdOf } from './job-id.js';

/**
 * Options of `enqueueTo`.
 *
 * @example
 * const options: EnqueueToOptions = { includeSignedBody: true, jobOptions: { attempts: 10 } };
 * createReceiver({ secret, enqueue: enqueueTo(queue, options) });
 */
export interface EnqueueToOptions {
  /** Also store the exact signed text in `job.data.signedBody` (to re-verify or archive it). Default false. */
  includeSignedBody?: boolean;
  /** The job name. Default: the message's `type` (`track`, `identify`, …), else `webhook`. */
  jobName?: string | ((handoff: Handoff) => string);
  /**
   * BullMQ job options, over `DEFAULT_JOB_OPTIONS` and the queue's `defaultJobOptions`. `jobId` is
   * always the dedupe key's.
   */
  jobOptions?: Omit<JobsOptions, 'jobId'>;
}

/** Seconds a completed job is kept: longer than the sender's 4 h of retries, so its id still dedupes them. */
const KEEP_COMPLETED_S = 5 * 60 * 60;

/**
 * Job options `enqueueTo` uses unless the queue or `jobOptions` say otherwise: 8 attempts with
 * exponential backoff from 1 s, completed jobs kept 5 h (their ids dedupe the sender's retries
 * across receiver instances), failed jobs kept (visible and re-runnable).
 *
 * @example
 * enqueueTo(queue, { jobOptions: { ...DEFAULT_JOB_OPTIONS, attempts: 20 } });
 */
export const DEFAULT_JOB_OPTIONS: Readonly<JobsOptions> = Object.freeze({
  attempts: 8,
  backoff: { type: 'exponential', delay: 1000 },
  removeOnComplete: { age: KEEP_COMPLETED_S },
  removeOnFail: false,
});

/**
 * The `enqueue` option of a receiver that stores each verified message as a BullMQ job. The job id
 * is the message's dedupe key, so a retried delivery (to this instance or another) never makes a
 * second job. The receiver answers 200 once `queue.add` resolved, 503 when Redis did not take it
 * within the deadline. Jobs from a Webhooks (Actions) receiver are marked `destination: 'actions'`,
 * so a worker of the other kind fails them naming the mismatch instead of mistyping them.
 *
 * @example
 * import { Queue } from 'bullmq';
 * import { createReceiver } from '@hookgate/core';
 * import { enqueueTo } from '@hookgate/bullmq';
 *
 * const queue = new Queue('webhooks', { connection: { host: '127.0.0.1', port: 6379 } });
 * const receiver = createReceiver({ secret: process.env.WEBHOOK_SECRET!, enqueue: enqueueTo(queue) });
 */
export function enqueueTo(queue: Queue, options: EnqueueToOptions = {}): EnqueueHandoff {
  if (queue === null || typeof queue !== 'object' || typeof (queue as { add?: unknown }).add !== 'function') {
    throw new TypeError(
      'enqueueTo(queue) needs a BullMQ Queue, e.g. enqueueTo(new Queue("webhooks", { connection })).',
    );
  }
  const { includeSignedBody = false, jobName, jobOptions } = options;
  if (jobOptions && 'jobId' in jobOptions) {
    throw new TypeError(
      "enqueueTo: jobOptions.jobId cannot be set: the job id is the message's dedupe key (that is what makes retries one job).",
    );
  }
  // ignoreBOM: a leading byte-order mark was signed too, so it is kept (the default decoder drops it).
  const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });
  // Merged once: BullMQ merges the queue's defaultJobOptions again on each add, so ours go under them.
  const queueDefaults = queue.defaultJobOptions ?? {};
  const picked: JobsOptions = { ...DEFAULT_JOB_OPTIONS, ...jobOptions };
  for (const name of Object.keys(queueDefaults))
    if (!(jobOptions && name in jobOptions)) delete (picked as Record<string, unknown>)[name];
  // Frozen: each job's options are spread from it, and a spread from a frozen object measured ~10 µs
  // less CPU per request through BullMQ than one from a plain object (docs/architecture.md).
  const merged = Object.freeze(picked);
  // Not async: the receiver awaits the promise `queue.add` returns (and catches a synchronous throw).
  return (handoff: Handoff) => {
    // Only what the job does not record already: the key is the job id's, the time the job's timestamp.
    const data: HandoffJobData = { message: handoff.message };
    if (handoff.destination !== 'classic') data.destination = handoff.destination;
    const { verification } = handoff;
    if (verification.form !== 'raw' || verification.secretIndex !== 0) data.verification = verification;
    if (handoff.lossyNumbers.length > 0) data.lossyNumbers = [...handoff.lossyNumbers];
    if (handoff.traceContext !== undefined) data.traceContext = handoff.traceContext;
    const signed = handoff.signedBody;
    if (includeSignedBody && signed !== undefined)
      data.signedBody = typeof signed === 'string' ? signed : utf8.decode(signed);
    // A mapped Actions payload may have no `type`: its jobs are named `webhook`.
    const name =
      typeof jobName === 'function'
        ? jobName(handoff)
        : (jobName ?? (typeof handoff.message.type === 'string' ? handoff.message.type : 'webhook'));
    // One object literal: a copy given its jobId afterwards measured slower through BullMQ too.
    return queue.add(name, data, { ...merged, jobId: jobIdOf(handoff.dedupeKey) });
  };
}
