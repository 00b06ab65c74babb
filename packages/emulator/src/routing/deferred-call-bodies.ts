import type { DeferredBody } from '../log/delivery-record.js';
import type { Call } from '@hookgate/core/calls';
import { serializeMessage, type Serialization } from './serialize.js';
import { callToMessage, type TransformOptions } from './transform.js';

/**
 * Where the validated calls of one request can be had again later: lets a filtered record drop the
 * call's object graph and rebuild its body only if read (the intake keeps the request's bytes).
 *
 * @example
 * const source: CallSource = { pin() {}, callAt: (i) => calls[i] as Call };
 */
export interface CallSource {
  /** Called once a record keeps this source: make it independent of the request's buffers. */
  pin(): void;
  /** The call at `index` of the request, as it was ingested. */
  callAt(index: number): Call;
  /** The call at `index` as text, exactly as the client sent it (when the request's bytes are kept). */
  rawCallAt?(index: number): string | undefined;
}

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
    readonly context: { options: TransformOptions & { serialization: Serialization } },
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
