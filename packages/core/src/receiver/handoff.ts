import type { WebhookMessage } from '../messages/types.js';
import type { Verification } from './verification.js';

/**
 * What a receiver in enqueue mode hands to its `enqueue` function: a verified, validated message
 * whose dedupe claim it holds. Never carries the secret.
 *
 * @example
 * const enqueue: EnqueueHandoff = async (handoff: Handoff) => {
 *   await myQueue.push({ id: handoff.dedupeKey, message: handoff.message });
 * };
 * createReceiver({ secret, enqueue });
 */
export interface Handoff<M = WebhookMessage> {
  /** The verified message: a classic message, or (from a `destination: 'actions'` receiver) the Actions payload. */
  message: M;
  /**
   * Which destination's receiver verified it: `classic` (Webhooks) or `actions` (Webhooks (Actions)).
   * Store it with the message: the two carry different shapes, so whoever reads the queue must know which.
   */
  destination: 'classic' | 'actions';
  /** The dedupe key (`id:<messageId>`, else a digest of what was signed): key the stored copy by it. */
  dedupeKey: string;
  /** The exact text or bytes the signature matched; `undefined` when verification is off. */
  signedBody: string | Uint8Array | undefined;
  /** Which body form and which secret verified the signature. */
  verification: Verification;
  /** When the request reached the receiver. */
  receivedAt: Date;
  /**
   * Where the body held a number JSON parsing changed (`properties.orderId`), as `ctx.lossyNumbers`
   * gives handlers; empty when none. With `bigNumbers: 'string'` the message holds their exact text.
   */
  lossyNumbers: readonly string[];
  /** Fires at the deadline: the receiver has answered 503 and the sender will retry. */
  signal: AbortSignal;
  /**
   * The delivery's trace context as text (a W3C `traceparent`), when the receiver has `telemetry`;
   * store it with the message and give it to the worker's telemetry, so its work joins the delivery's
   * trace (`enqueueTo` does). `undefined` without telemetry.
   */
  traceContext?: string | undefined;
}

/**
 * The `enqueue` option: stores a verified message durably (a queue, a table) and resolves once it
 * is stored. The receiver answers 200 only after it resolves; 503 when it throws or has not
 * resolved by the deadline (the dedupe claim is released, so the sender's retry is taken again).
 * Make it idempotent on `dedupeKey`: a retry after a late store must not store a second copy
 * (`@hookgate/bullmq`'s `enqueueTo` uses the key as the job id).
 *
 * @example
 * import { enqueueTo } from '@hookgate/bullmq';
 * createReceiver({ secret, enqueue: enqueueTo(queue) });
 * // or by hand:
 * createReceiver({ secret, enqueue: (h) => db.insertIgnore('inbox', { id: h.dedupeKey, body: h.message }) });
 */
export type EnqueueHandoff = (handoff: Handoff) => unknown;
