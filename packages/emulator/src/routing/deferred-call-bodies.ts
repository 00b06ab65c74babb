import type { DeferredBody } from '../log/delivery-record.js';
import type { ResolvedOptions } from '../options.js';
import type { CallSource } from '../trusted-ingest.js';
import { serializeMessage } from './serialize.js';
import { callToMessage } from './transform.js';

/**
 * The bodies of a request's filtered calls, built (message, check, serialization) only when read: a
 * call that is never sent is recorded at once, with its reason, and costs no message work unless
 * someone looks. The calls come from a `CallSource` (the intake keeps the request's bytes, not the
 * parsed objects); one object serves every call of the request.
 *
 * @example
 * const deferred = new DeferredCallBodies(source, Date.now(), { options });
 * deferred.materialize(0); // the first call's body, built now
 */
export class DeferredCallBodies implements DeferredBody {
  constructor(
    readonly source: CallSource,
    readonly receivedMs: number,
    readonly context: { options: ResolvedOptions },
  ) {}

  materialize(index: number): string {
    const { options } = this.context;
    const built = callToMessage(this.source.callAt(index), this.receivedMs, options);
    return built.ok ? serializeMessage(built.message, options.serialization) : '';
  }

  rawCall(index: number): string | undefined {
    return this.source.rawCallAt?.(index);
  }
}
