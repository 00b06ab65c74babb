import { getHeader, type HeadersLike } from './headers.js';
import type { Verification } from './options.js';
import type { PlanViolation } from '../tracking-plan/json-schema-validator.js';

/**
 * The handler context the receiver builds per request (internal): the adapter's extras, then the
 * receiver's own fields. `signal` is made on first read (most handlers never read it) and still
 * fires for an abort that came before; `header` is an own function, so `const { header } = ctx` works.
 *
 * @example
 * const context = new RequestContext(input.context, headers, key, verification, new Date());
 * RequestContext.abort(context, new DeadlineExceededError(4000)); // fires `signal` (now, or on first read)
 */
export class RequestContext {
  declare dedupeKey: string | undefined;
  declare verification: Verification;
  declare receivedAt: Date;
  declare header: (name: string) => string | undefined;
  declare violations: readonly PlanViolation[];
  declare planned: boolean;
  declare lossyNumbers: readonly string[];
  #controller: AbortController | undefined;
  #aborted: { reason: unknown } | undefined;

  constructor(
    extra: unknown,
    headers: HeadersLike,
    dedupeKey: string | undefined,
    verification: Verification,
    receivedAt: Date,
  ) {
    // The adapter's extras first; the receiver's own fields win over an extra of the same name.
    if (extra !== undefined && extra !== null) {
      for (const name of Object.keys(extra)) {
        if (name !== 'signal') (this as Record<string, unknown>)[name] = (extra as Record<string, unknown>)[name];
      }
    }
    this.dedupeKey = dedupeKey;
    this.verification = verification;
    this.receivedAt = receivedAt;
    this.header = (name: string) => {
      const v = getHeader(headers, name);
      return Array.isArray(v) ? v.join(', ') : (v as string | undefined);
    };
  }

  /** Fires at the deadline (mode `handle`); made on first read. */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#aborted.reason);
    }
    return this.#controller.signal;
  }

  /** Fires `signal` of `context` now, or when it is first read if no one has read it yet (static: no method on the handler's context). */
  static abort(context: RequestContext, reason?: unknown): void {
    if (context.#controller !== undefined) context.#controller.abort(reason);
    else context.#aborted ??= { reason };
  }
}
// Without a tracking plan (or before its step set them): no violations, not planned; no number changed.
Object.assign(RequestContext.prototype, {
  violations: Object.freeze([]),
  planned: false,
  lossyNumbers: Object.freeze([]),
});
