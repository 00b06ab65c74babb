import type { Call } from '@hookgate/core/calls';
import type { CallSource } from '../routing/deferred-call-bodies.js';
import { parseIntakePayload, type IntakeRoute, type PayloadLimits } from './parse-intake-payload.js';
import { rawCallText } from './raw-call-text.js';

/**
 * An accepted request body, kept for the calls of it that are never sent (filtered): as its UTF-8
 * bytes (off the JavaScript heap: no garbage-collector work however many are kept), from which a
 * call is parsed again only when someone reads its record's message. Parsing the same bytes with the
 * same route and limits gives the same calls (the body was accepted as a whole once already).
 *
 * @example
 * const kept = new KeptIntakeBody(bytes, route, limits);
 * const call = kept.callAt(3); // the batch's 4th call, parsed again
 */
export class KeptIntakeBody implements CallSource {
  #bytes: Buffer;
  #pinned = false;
  #calls: WeakRef<Call[]> | undefined;

  constructor(
    bytes: Buffer,
    readonly route: IntakeRoute,
    readonly limits: PayloadLimits,
  ) {
    this.#bytes = bytes;
  }

  /**
   * Copies the bytes (once) when they are a view of a larger buffer (a socket's read buffer or
   * Node's shared pool), which a kept record must not hold on to; a buffer of their own is kept as is.
   */
  pin(): void {
    if (this.#pinned) return;
    this.#pinned = true;
    const bytes = this.#bytes;
    if (bytes.byteOffset !== 0 || bytes.buffer.byteLength !== bytes.length) this.#bytes = Buffer.from(bytes);
  }

  /** The call at `index` as the client sent it: its text in the kept bytes, found by a scan (not parsed). */
  rawCallAt(index: number): string | undefined {
    return rawCallText(this.#bytes.toString('utf8'), this.route, index);
  }

  /** The call at `index`, parsed again from the bytes (the parsed list is cached while something holds it). */
  callAt(index: number): Call {
    let calls = this.#calls?.deref();
    if (calls === undefined) {
      const parsed = parseIntakePayload(JSON.parse(this.#bytes.toString('utf8')), this.route, this.limits);
      if (!parsed.ok) throw new Error(`hookgate intake: a kept body no longer parses (${parsed.response.body})`);
      calls = parsed.calls;
      this.#calls = new WeakRef(calls);
    }
    return calls[index] as Call;
  }
}
