import { getHeader, type HeadersLike } from './headers.js';
import type { HandlerContext, Verification } from './options.js';
import type { PlanCheckResult, PlanViolation } from '../tracking-plan/compiled-plan.js';

/** What the receiver knows of one request when it makes the handler's context. */
export interface RequestContextFields {
  /** The adapter's extras (`{ req, res }`, `{ c }`). */
  extra: unknown;
  headers: HeadersLike;
  dedupeKey: string | undefined;
  verification: Verification;
  receivedAt: Date;
  /** The tracking plan's outcome; `undefined` without a plan (no violations, not planned). */
  planCheck?: PlanCheckResult | undefined;
  /** The paths of the numbers parsing changed, found on the first read of `lossyNumbers`. */
  lossyNumbers: () => readonly string[];
}

const NO_VIOLATIONS: readonly PlanViolation[] = Object.freeze([]);
/** The receiver's fields made on first read (getters): an extra of the same name is not copied over them. */
const ON_FIRST_READ = new Set(['signal', 'lossyNumbers']);

/**
 * The handler context the receiver builds per request (internal): the adapter's extras, then the
 * receiver's own fields. `signal` and `lossyNumbers` are made on first read (most handlers read
 * neither); `signal` still fires for an abort that came before; `header` is an own function, so
 * `const { header } = ctx` works.
 *
 * @example
 * const context = new RequestContext({ extra, headers, dedupeKey, verification, receivedAt, lossyNumbers: () => [] });
 * RequestContext.abort(context, new DeadlineExceededError(4000)); // fires `signal` (now, or on first read)
 */
export class RequestContext {
  declare dedupeKey: string | undefined;
  declare verification: Verification;
  declare receivedAt: Date;
  declare header: (name: string) => string | undefined;
  declare violations: readonly PlanViolation[];
  declare planned: boolean;
  #lossyNumbers: (() => readonly string[]) | readonly string[];
  #controller: AbortController | undefined;
  #aborted: { reason: unknown } | undefined;

  constructor(fields: RequestContextFields) {
    const { extra, headers } = fields;
    // The adapter's extras first; the receiver's own fields win over an extra of the same name.
    if (extra !== undefined && extra !== null) {
      for (const name of Object.keys(extra)) {
        if (!ON_FIRST_READ.has(name))
          (this as Record<string, unknown>)[name] = (extra as Record<string, unknown>)[name];
      }
    }
    this.dedupeKey = fields.dedupeKey;
    this.verification = fields.verification;
    this.receivedAt = fields.receivedAt;
    this.header = (name: string) => {
      const v = getHeader(headers, name);
      return Array.isArray(v) ? v.join(', ') : (v as string | undefined);
    };
    this.violations = fields.planCheck?.violations ?? NO_VIOLATIONS;
    this.planned = fields.planCheck?.planned ?? false;
    this.#lossyNumbers = fields.lossyNumbers;
  }

  /** Where the body held a number JSON parsing changed; found on first read, then kept. */
  get lossyNumbers(): readonly string[] {
    if (typeof this.#lossyNumbers === 'function') this.#lossyNumbers = Object.freeze([...this.#lossyNumbers()]);
    return this.#lossyNumbers;
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

/**
 * A handler's context typed with the adapter's extras it carries (the constructor copies them).
 *
 * @example
 * const context: HandlerContext<{ req: Request }> = handlerContext({ extra: { req }, headers, dedupeKey, verification, receivedAt, lossyNumbers: () => [] });
 */
export function handlerContext<TExtra>(fields: RequestContextFields & { extra: TExtra }): HandlerContext<TExtra> {
  return new RequestContext(fields) as RequestContext & TExtra;
}

/**
 * Fires the `signal` of a context the receiver made (now, or on its first read).
 *
 * @example
 * abortContext(context, new DeadlineExceededError(4000));
 */
export function abortContext(context: HandlerContext<unknown>, reason?: unknown): void {
  if (context instanceof RequestContext) RequestContext.abort(context, reason);
}
