/**
 * Durable handoff: verified webhook messages stored in BullMQ before the 200, processed by typed workers.
 *
 * @packageDocumentation
 * @module @hookgate/bullmq
 */

export { enqueueTo, DEFAULT_JOB_OPTIONS, type EnqueueToOptions } from './enqueue-to.js';
export { createWorker, type CreateWorkerOptions, type JobContext, type JobHandler, type JobHandlers } from './create-worker.js';
export type { HandoffJobData } from './job-data.js';
export { jobIdOf } from './job-id.js';
