import type { PlanViolation, Verification } from '@hookgate/core';
import type { Job } from 'bullmq';
import type { HandoffJobData } from './job-data.js';
import { dedupeKeyOf } from './job-id.js';

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
  /** When the receiver stored the job (`job.timestamp`), just after the request arrived. */
  receivedAt: Date;
  /** Which body form and which secret index verified the message. */
  verification: Verification;
  /**
   * Where the body held a number JSON parsing changed (`properties.orderId`), as the receiver's
   * `ctx.lossyNumbers` gave it; empty when none. With the receiver's `bigNumbers: 'string'` the
   * message holds their exact text.
   */
  lossyNumbers: readonly string[];
  /** The exact signed text, when the receiver used `enqueueTo(queue, { includeSignedBody: true })`. */
  signedBody: string | undefined;
  /** Fires when BullMQ cancels the job (e.g. the worker closes with force). */
  signal: AbortSignal;
  /** How the message breaks the worker's `trackingPlan`; empty when it does not, or without a plan. */
  violations: readonly PlanViolation[];
  /** Whether the worker's `trackingPlan` has a rule for the message (false without a plan). */
  planned: boolean;
}

/**
 * A worker's handler for one message type; throwing fails the attempt (BullMQ retries it).
 *
 * @example
 * const onIdentify: JobHandler<IdentifyMessage> = (msg, ctx) => crm.upsert(msg.userId, msg.traits, { key: ctx.dedupeKey });
 */
export type JobHandler<M> = (message: M, context: JobContext) => unknown;

const NEVER = new AbortController().signal;
const NO_LOSSY_NUMBERS: readonly string[] = Object.freeze([]);
const NO_VIOLATIONS: readonly PlanViolation[] = Object.freeze([]);

/**
 * The context of a job `enqueueTo` stored: the dedupe key from its id, the time from its timestamp,
 * the verification from its data (absent: the exact bytes under the first secret).
 *
 * @example
 * const ctx = jobContextOf(job, signal);
 * await handler(job.data.message, ctx);
 */
export function jobContextOf(job: Job<HandoffJobData<unknown>>, signal: AbortSignal | undefined): JobContext {
  const data = job.data;
  return {
    job: job as unknown as Job<HandoffJobData>,
    dedupeKey: dedupeKeyOf(job.id ?? ''),
    attempt: job.attemptsMade + 1,
    receivedAt: new Date(job.timestamp),
    verification: data.verification ?? { form: 'raw', secretIndex: 0 },
    signedBody: data.signedBody,
    lossyNumbers: Array.isArray(data.lossyNumbers) ? data.lossyNumbers : NO_LOSSY_NUMBERS,
    signal: signal ?? NEVER,
    violations: NO_VIOLATIONS,
    planned: false,
  };
}
