import type { AttemptError } from '../log/delivery-record.js';

/**
 * What one attempt leads to for its endpoint.
 *
 * @example
 * const verdict: Verdict = { outcome: 'retry', error: { code: 'http', message: '503 Service Unavailable' } };
 */
export type Verdict =
  | { outcome: 'delivered' }
  | { outcome: 'retry'; error: AttemptError; retryAfterMs?: number }
  | { outcome: 'fail'; error: AttemptError };

/**
 * How a destination's answers are judged: each destination (classic Webhooks, Webhooks (Actions))
 * hands the engine its own policy with each record it delivers.
 *
 * @example
 * engine.deliver(record, classicPolicy(options.responsePolicy));
 */
export interface DeliveryPolicy {
  /** The verdict on an answer (any status, 2xx included). */
  judgeAnswer(status: number, statusText: string | undefined, location: string | undefined): Verdict;
  /** The verdict on a request that got no whole answer (timeout, connection, TLS, close). */
  judgeError(error: AttemptError): Verdict;
  /** Whether a 429 or 503 answer's `Retry-After` may delay the next round. */
  readonly honorRetryAfter: boolean;
}
