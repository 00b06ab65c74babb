import type { Verification, WebhookMessage } from '@hookgate/core';

/**
 * What a job made by `enqueueTo` holds (JSON in Redis). Never the secret or the signature.
 *
 * @example
 * const job = await queue.getJob(jobIdOf('id:m1'));
 * const data = job?.data as HandoffJobData | undefined;
 * console.log(data?.message.type, data?.dedupeKey);
 */
export interface HandoffJobData<M = WebhookMessage> {
  /** The verified, validated message. */
  message: M;
  /** The receiver's dedupe key; the job id is made from it (`jobIdOf`). */
  dedupeKey: string;
  /** When the request reached the receiver (ISO 8601). */
  receivedAt: string;
  /** Which body form and which secret index verified it. */
  verification: Verification;
  /** The exact signed text (UTF-8), only with `enqueueTo(queue, { includeSignedBody: true })`. */
  signedBody?: string;
}
