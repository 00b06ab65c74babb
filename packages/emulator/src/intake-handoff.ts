import { ValidationError } from '@hookgate/core';
import { type Call, type CallType } from '@hookgate/core/calls';
import type { IntakeNote } from './intake/big-number-notes.js';
import type { IntakeSink } from './intake/intake-sink.js';
import { tooDeepAt } from './intake/json-depth.js';
import { MAX_CALL_DEPTH } from './intake/limits.js';
import { MessageIdWindow } from './intake/message-id-window.js';
import type { DeliveryRecord } from './log/delivery-record.js';
import type { Pipeline } from './pipeline.js';
import type { CallSource } from './routing/deferred-call-bodies.js';

/**
 * Throws a `ValidationError` for a call nested deeper than `MAX_CALL_DEPTH`: serializing (or mapping)
 * it would overflow the stack halfway through accepting it. The intake checks the same bound.
 *
 * @example
 * assertCallDepth(call); // before the pipeline sees a user's call
 */
export function assertCallDepth(call: Call): void {
  const deep = tooDeepAt(call, MAX_CALL_DEPTH, '$');
  if (deep === undefined) return;
  throw new ValidationError(
    [
      {
        path: deep,
        message: `nests deeper than ${MAX_CALL_DEPTH} levels of objects and arrays (the limit per call); flatten it or send it as a string`,
      },
    ],
    `${typeof call.type === 'string' ? call.type : 'the'} call`,
  );
}

/**
 * The emulator's side of the intake: calls the intake validated go to the pipeline unchecked,
 * deduplicated like the tracking API's (a `(writeKey, messageId)` accepted within the dedupe window
 * is recorded `filtered` with `duplicateOf` and not delivered again: the client's answer was lost and
 * it resent); refused calls are recorded `filtered` with the intake's reason.
 *
 * @example
 * offerIntakeSink(emulator, new IntakeHandoff(pipeline));
 */
export class IntakeHandoff implements IntakeSink {
  readonly #p: Pipeline;
  /** The `(writeKey, messageId)` pairs accepted within the dedupe window (absent when turned off). */
  readonly #messageIds: MessageIdWindow | undefined;

  constructor(pipeline: Pipeline) {
    this.#p = pipeline;
    const { dedupe } = pipeline.options;
    this.#messageIds = dedupe && new MessageIdWindow(dedupe.windowMs, dedupe.maxEntries);
  }

  acceptValidated(
    call: Call,
    writeKey: string,
    receivedMs: number,
    again?: CallSource,
    index = 0,
    note?: IntakeNote,
  ): DeliveryRecord {
    this.#p.assertOpen('ingest');
    const source = this.#p.sources.get(writeKey);
    const window = this.#messageIds;
    const messageId = call.messageId;
    const deduped = window !== undefined && typeof messageId === 'string' && messageId.length > 0;
    const first = deduped ? window.firstSeen(writeKey, messageId, receivedMs) : undefined;
    if (!deduped || first === undefined) {
      const record = this.#p.accept(call, source, receivedMs, again, index);
      if (deduped) window.remember(writeKey, messageId, receivedMs, Number(record.id.slice(4)));
      if (note !== undefined) this.#p.noteFromIntake(record, note.notes, note.rawCall);
      return record;
    }
    const hours = window.windowMs / 3_600_000;
    const span = Number.isInteger(hours) ? `${hours} h` : `${window.windowMs} ms`;
    const firstId = `dlv_${first}`;
    // The message it would have sent is built only if read, from the request's kept bytes (as for any filtered call).
    if (again !== undefined) again.pin();
    return this.#p.record({
      type: call.type,
      source,
      origin: 'call',
      message: undefined,
      receivedMs,
      filteredReason: `duplicate: messageId ${JSON.stringify(messageId)} was already accepted as ${firstId}, within the ${span} dedupe window; acknowledged and not delivered again`,
      ...(again === undefined ? { body: '' } : { deferred: { body: this.#p.deferredFor(again, receivedMs), index } }),
      duplicateOf: firstId,
    });
  }

  recordRefused(
    type: CallType,
    writeKey: string,
    receivedMs: number,
    reason: string,
    rawCall?: string,
  ): DeliveryRecord {
    this.#p.assertOpen('ingest');
    const record = this.#p.record({
      type,
      source: this.#p.sources.get(writeKey),
      origin: 'call',
      message: undefined,
      receivedMs,
      filteredReason: reason,
      body: '',
    });
    if (rawCall !== undefined) this.#p.noteFromIntake(record, [], rawCall);
    return record;
  }
}
