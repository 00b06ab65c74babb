import type { WebhookMessage } from '../messages/types.js';
import type { Handoff } from './handoff.js';
import type { Verification } from './verification.js';

/**
 * The `Handoff` the receiver passes to `enqueue` (internal); its `signal` and `lossyNumbers` are the
 * request context's, read only when asked (like the context's, `signal` is made on first read).
 *
 * @example
 * const handoff = new RequestHandoff(message, 'id:m1', raw, verification, new Date(), context, 'classic');
 * await enqueue(handoff);
 */
export class RequestHandoff implements Handoff {
  /** Set by the receiver's telemetry as `enqueue` is called. */
  traceContext: string | undefined = undefined;
  readonly #source: { readonly signal: AbortSignal; readonly lossyNumbers: readonly string[] };

  constructor(
    readonly message: WebhookMessage,
    readonly dedupeKey: string,
    readonly signedBody: string | Uint8Array | undefined,
    readonly verification: Verification,
    readonly receivedAt: Date,
    source: { readonly signal: AbortSignal; readonly lossyNumbers: readonly string[] },
    readonly destination: 'classic' | 'actions',
  ) {
    this.#source = source;
  }

  /** Fires at the deadline; made on first read. */
  get signal(): AbortSignal {
    return this.#source.signal;
  }

  /** The request context's: where the body held a number JSON parsing changed. */
  get lossyNumbers(): readonly string[] {
    return this.#source.lossyNumbers;
  }
}
