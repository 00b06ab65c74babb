import type { Verification, WebhookMessage } from '@hookgate/core';
import type { JobDestination } from './job-destination.js';

/**
 * What a job made by `enqueueTo` holds (JSON in Redis). Never the secret or the signature.
 *
 * @example
 * const job = await queue.getJob(jobIdOf('id:m1'));
 * const data = job?.data as HandoffJobData | undefined;
 * console.log(data?.destination, data?.message.type, data?.dedupeKey);
 */
export interface HandoffJobData<M = WebhookMessage> {
  /** The verified, validated message: a classic message, or an Actions payload (whole Segment event or mapped data). */
  message: M;
  /**
   * Which destination's receiver stored it (`classic` or `actions`); a worker for the other one fails
   * the job naming the mismatch. Absent on jobs stored before it was recorded: read as `classic`.
   */
  destination?: JobDestination;
  /** The receiver's dedupe key; the job id is made from it (`jobIdOf`). */
  dedupeKey: string;
  /** When the request reached the receiver (ISO 8601). */
  receivedAt: string;
  /** Which body form and which secret index verified it. */
  verification: Verification;
  /** The exact signed text (UTF-8), only with `enqueueTo(queue, { includeSignedBody: true })`. */
  signedBody?: string;
}
