import type { Verification } from '@hookgate/core';
import type { Job } from 'bullmq';
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
