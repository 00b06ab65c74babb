import type { Verification, WebhookMessage } from '@hookgate/core';
import type { JobDestination } from './job-destination.js';

/**
 * What a job made by `enqueueTo` holds (JSON in Redis): only what the job does not record already,
 * so a job kept 5 h costs Redis little. Never the secret or the signature. The dedupe key is the job
 * id's (`dedupeKeyOf(job.id)`), the time it was stored `job.timestamp`; a worker's `ctx` gives both.
 *
 * @example
 * const job = await queue.getJob(jobIdOf('id:m1'));
 * const data = job?.data as HandoffJobData | undefined;
 * console.log(data?.destination ?? 'classic', data?.message.type, new Date(job!.timestamp));
 */
export interface HandoffJobData<M = WebhookMessage> {
  /** The verified, validated message: a classic message, or an Actions payload (whole Segment event or mapped data). */
  message: M;
  /**
   * `actions` on jobs from a Webhooks (Actions) receiver; absent on classic ones. A worker for the
   * other destination fails the job naming the mismatch.
   */
  destination?: JobDestination;
  /**
   * Which body form and which secret index verified it; absent for the usual case, the exact bytes
   * under the first secret (`{ form: 'raw', secretIndex: 0 }`).
   */
  verification?: Verification;
  /**
   * Where the body held a number JSON parsing changed (the receiver's `ctx.lossyNumbers`, e.g.
   * `properties.orderId`); absent when none. A worker's `ctx.lossyNumbers` gives it.
   */
  lossyNumbers?: string[];
  /** The exact signed text (UTF-8), only with `enqueueTo(queue, { includeSignedBody: true })`. */
  signedBody?: string;
  /**
   * The delivery's trace context (a W3C `traceparent`), when the receiver has `telemetry`: a worker
   * given `telemetry` runs each attempt of the job in that trace.
   */
  traceContext?: string;
}
