/**
 * Durable handoff: verified webhook messages stored in BullMQ before the 200, processed by typed workers.
 *
 * @packageDocumentation
 * @module @hookgate/bullmq
 */

export { enqueueTo, DEFAULT_JOB_OPTIONS, type EnqueueToOptions } from './enqueue-to.js';
export { createWorker, type CreateWorkerOptions, type JobHandlers } from './create-worker.js';
export type { JobContext, JobHandler } from './job-context.js';
export type { ActionsWorkerOptions, ActionsJobHandlers } from './actions-worker.js';
export type { JobDestination } from './job-destination.js';
export type { HandoffJobData } from './job-data.js';
export { jobIdOf, dedupeKeyOf } from './job-id.js';
