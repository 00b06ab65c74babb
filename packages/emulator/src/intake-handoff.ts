import { ValidationError } from '@hookgate/core';
import { callIssues, type Call, type CallType } from '@hookgate/core/calls';
import type { IntakeEntry, IntakeSink } from './intake/intake-sink.js';
import { tooDeepAt } from './intake/json-depth.js';
import { MAX_CALL_DEPTH } from './intake/limits.js';
import { MessageIdWindow } from './intake/message-id-window.js';
import { recordId, type DeliveryRecord } from './log/delivery-record.js';
import type { Pipeline } from './pipeline.js';
import type { SourceState } from './routing/source-registry.js';
import { callToMessage } from './routing/transform.js';

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

/** How a call came in: the method it came through (named if the emulator is closed) and when. */
interface CallArrival {
  method: string;
  writeKey: string;
  receivedMs: number;
}

/**
 * The emulator's one way in for calls, from the library (`track` & co., `ingest`) and from the
 * intake (its `IntakeSink`) alike: every call is checked the same way (depth, then core's
 * `callIssues`), then routed and recorded by the pipeline. The intake's calls are also deduplicated
 * like the tracking API's (a `(writeKey, messageId)` accepted within the dedupe window is recorded
 * `filtered` with `duplicateOf` and not delivered again: the client's answer was lost and it resent),
 * and its refused calls are recorded `filtered` with the intake's reason.
 *
 * @example
 * const handoff = new IntakeHandoff(pipeline);
 * handoff.ingest(call, { method: 'track', writeKey: 'wk', receivedMs: clock.now() });
 * await listenIntake({ ...engine, intakeSink: handoff });
 */
export class IntakeHandoff implements IntakeSink {
  readonly #p: Pipeline;
  /** The `(writeKey, messageId)` pairs the intake accepted within the dedupe window (absent when turned off). */
  readonly #messageIds: MessageIdWindow | undefined;

  constructor(pipeline: Pipeline) {
    this.#p = pipeline;
    const { dedupe } = pipeline.options;
    this.#messageIds = dedupe && new MessageIdWindow(dedupe.windowMs, dedupe.maxEntries);
  }

  /** A call of the library: checked, recorded, delivered (not deduplicated: only the intake's calls are). */
  ingest(call: Call, arrival: CallArrival): DeliveryRecord {
    const source = this.#check(call, arrival);
    return this.#p.accept(call, source, arrival.receivedMs);
  }

  accept(call: Call, entry: IntakeEntry): DeliveryRecord {
    const { writeKey, receivedMs } = entry;
    const source = this.#check(call, { method: 'ingest', writeKey, receivedMs });
    const window = this.#messageIds;
    const messageId = call.messageId;
    if (window === undefined || typeof messageId !== 'string' || messageId.length === 0)
      return this.#p.accept(call, source, receivedMs, entry);
    const first = window.firstSeen(writeKey, messageId, receivedMs);
    if (first === undefined) {
      const record = this.#p.accept(call, source, receivedMs, entry);
      window.remember(writeKey, messageId, receivedMs, record.seq);
      return record;
    }
    const hours = window.windowMs / 3_600_000;
    const span = Number.isInteger(hours) ? `${hours} h` : `${window.windowMs} ms`;
    const firstId = recordId(first);
    // Not sent; its body is the message it would have sent, as for any filtered call.
    const built = callToMessage(call, receivedMs, this.#p.options);
    return this.#p.record({
      type: call.type,
      source,
      origin: 'call',
      message: built.ok ? built.message : undefined,
      receivedMs,
      filteredReason: `duplicate: messageId ${JSON.stringify(messageId)} was already accepted as ${firstId}, within the ${span} dedupe window; acknowledged and not delivered again`,
      duplicateOf: firstId,
      said: entry,
    });
  }

  refuse(type: CallType, entry: IntakeEntry, reason: string): DeliveryRecord {
    this.#p.assertOpen('ingest');
    return this.#p.record({
      type,
      source: this.#p.sources.get(entry.writeKey),
      origin: 'call',
      message: undefined,
      receivedMs: entry.receivedMs,
      filteredReason: reason,
      said: entry,
    });
  }

  /** The checks every call passes, whichever way it came: open, depth, known source, core's `callIssues`. */
  #check(call: Call, arrival: CallArrival): SourceState {
    this.#p.assertOpen(arrival.method);
    assertCallDepth(call);
    const source = this.#p.sources.get(arrival.writeKey);
    const issues = callIssues(call);
    if (issues.length > 0) {
      const type = typeof (call as { type?: unknown })?.type === 'string' ? (call as { type: string }).type : 'the';
      throw new ValidationError(issues, `${type} call`);
    }
    return source;
  }
}
