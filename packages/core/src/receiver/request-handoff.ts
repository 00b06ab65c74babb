import type { WebhookMessage } from '../messages/types.js';
import type { Handoff } from './handoff.js';
import type { Verification } from './verification.js';

/**
 * The `Handoff` the receiver passes to `enqueue` (internal). A class whose `signal` is read from the
 * request's context only when asked: making an `AbortSignal` per request cost about 1.5 % of a
 * receiver's CPU in enqueue mode, and most `enqueue` functions never read it.
 *
 * @example
 * const handoff = new RequestHandoff(message, 'id:m1', raw, verification, new Date(), context, 'classic');
 * await enqueue(handoff);
 */
export class RequestHandoff implements Handoff {
  readonly #source: { readonly signal: AbortSignal };

  constructor(
    readonly message: WebhookMessage,
    readonly dedupeKey: string,
    readonly signedBody: string | Uint8Array | undefined,
    readonly verification: Verification,
    readonly receivedAt: Date,
    source: { readonly signal: AbortSignal },
    readonly destination: 'classic' | 'actions',
  ) {
    this.#source = source;
  }

  /** Fires at the deadline; made on first read. */
  get signal(): AbortSignal {
    return this.#source.signal;
  }
}
