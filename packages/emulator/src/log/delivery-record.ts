import type { MessageType, WebhookMessage } from '@hookgate/core';
import { redactSignature, redactUrl } from '../redact.js';
import type { ActionsRecordInfo } from './actions-record-info.js';
import { LoggedAttempt, type Attempt, type AttemptInit, type RecordEndpoint } from './logged-attempt.js';

export type { Attempt, AttemptError, AttemptErrorCode } from './logged-attempt.js';

/**
 * Where a delivery record stands. `filtered` records were never sent; `reason` says why.
 *
 * @example
 * const open = emulator.deliveries.filter((r) => r.state === ('pending' satisfies DeliveryState));
 */
export type DeliveryState = 'pending' | 'delivered' | 'failed' | 'filtered';

/**
 * A retry that never started because another endpoint accepted the message: one that waited for its
 * turn in its endpoint's queue (at most `concurrency` requests in flight per endpoint), or the next
 * round's retry of an endpoint whose attempt had already failed as retryable (`outcome: 'retry'`)
 * before the accepting answer came.
 *
 * @example
 * emulator.on('cancelled', (c) => console.log(c.endpoint, c.reason)); // 'endpoint 1 (…) answered 200: …'
 */
export interface CancelledRetry {
  /** The id of the delivery record. */
  readonly recordId: string;
  /** The endpoint URL the retry was for, masked as `Attempt.endpoint`. */
  readonly endpoint: string;
  /** The retry round it belonged to or would have started (2 or more: first attempts are never cancelled). */
  readonly round: number;
  /** When it was cancelled (the accepting answer arrived), ISO 8601 UTC on the emulator's clock. */
  readonly at: string;
  /** Why, e.g. `endpoint 1 (http://127.0.0.1:3000/a) answered 200: a message is not retried after an endpoint accepted it`. */
  readonly reason: string;
}

/**
 * One message the emulator received (or synthesized: deletions, audience syncs) and its
 * delivery, with every attempt. `emulator.deliveries` lists them oldest first.
 *
 * @example
 * const record = emulator.track({ userId: 'u1', event: 'Signed Up' });
 * await emulator.drain();
 * if (record.state === 'failed') console.log(record.reason, record.attempts.at(-1)?.error);
 */
export interface DeliveryRecord {
  /** Unique within the emulator, e.g. `dlv_42`. */
  readonly id: string;
  /** The record's number: 1 for the first record made, in the order they were made (`id` is `dlv_<seq>`). */
  readonly seq: number;
  /** pending → delivered | failed; or filtered from the start. */
  readonly state: DeliveryState;
  /** The message type. */
  readonly type: MessageType;
  /** The source's write key. */
  readonly writeKey: string;
  /** The source's name, when it has one. */
  readonly sourceName?: string;
  /** What produced the record: a received call, a deletion, an audience or computed-trait sync, a replay. */
  readonly origin: 'call' | 'delete' | 'audience' | 'computed-trait' | 'replay';
  /**
   * The message (the Webhooks message shape), parsed from `body` on first read, so it is exactly what was sent;
   * absent only when no message could be built (see `reason`).
   */
  readonly message?: WebhookMessage;
  /** The exact bytes sent, as UTF-8 text (`''` when no message could be built). */
  readonly body: string;
  /** The `X-Signature` value, when the source has a shared secret. */
  readonly signature?: string;
  /** When the emulator received the call, ISO 8601 UTC on its clock. */
  readonly receivedAt: string;
  /** When the first attempt started. */
  readonly firstAttemptAt?: string;
  /** When the next retry round is due, while one is scheduled. */
  readonly nextAttemptAt?: string;
  /** Every attempt, in the order they ended. */
  readonly attempts: readonly Attempt[];
  /** Retries that never started because another endpoint had accepted the message (usually empty). */
  readonly cancelled: readonly CancelledRetry[];
  /** Why the record is failed or filtered. */
  readonly reason?: string;
  /** The endpoint whose 2xx made the record delivered, masked as `Attempt.endpoint`. */
  readonly deliveredTo?: string;
  /**
   * The 1-based number of that endpoint among the source's endpoints (as `serve` numbers its
   * `--endpoint` flags): other endpoints' failures are not retried, "endpoint N accepted".
   */
  readonly deliveredBy?: number;
  /** The id of the record this one replays. */
  readonly replayOf?: string;
  /** A Webhooks (Actions) record: its subscription, method and how many events its request holds. */
  readonly actions?: ActionsRecordInfo;
  /**
   * The id of the record that first took this call's `(writeKey, messageId)`, when the intake
   * received it again within its dedupe window: this record is `filtered` (acknowledged, not sent again).
   */
  readonly duplicateOf?: string;
  /**
   * What the intake noticed about the call, in words: an integer beyond 2^53 − 1 that JSON parsing
   * changed (the message carries the parsed value). Absent when there is nothing to say.
   */
  readonly notes?: readonly string[];
  /**
   * The call's text exactly as the client sent it (write key masked): kept when the intake has a note
   * about it (see `notes`), refused it, or the call was filtered.
   */
  readonly rawCall?: string;
}

/**
 * What `close()` reports: the records that had not finished. They are now `failed` with the reason
 * `emulator closed before delivery`, and were emitted as `failed`.
 *
 * @example
 * const { pending } = await emulator.close();
 * if (pending.length) console.warn(`${pending.length} messages were not delivered`);
 */
export interface CloseReport {
  pending: DeliveryRecord[];
}

/**
 * A record's id from its number: the one place that writes the id's format.
 *
 * @example
 * recordId(42); // 'dlv_42'
 */
export function recordId(seq: number): string {
  return `dlv_${seq}`;
}

/**
 * The number of the record a caller names by id (`dlv_42` → 42), or `undefined` when the text is no
 * record id as `recordId` writes it. For ids from outside (a URL, an argument); inside, read `seq`.
 *
 * @example
 * recordSeq('dlv_42'); // 42
 * recordSeq('dlv_042'); // undefined
 */
export function recordSeq(id: unknown): number | undefined {
  if (typeof id !== 'string' || !id.startsWith('dlv_')) return undefined;
  const seq = Number(id.slice(4));
  return Number.isSafeInteger(seq) && seq >= 1 && recordId(seq) === id ? seq : undefined;
}

/** The shared, frozen empty list of a record with no attempt or no cancelled retry yet. */
const NONE: readonly never[] = Object.freeze([]);

const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());

/** The source a record came from, as it was when the record was made (settings are replaced, never changed). */
export interface RecordSource {
  readonly writeKey: string;
  readonly name: string | undefined;
  readonly sharedSecret: string | undefined;
  readonly endpoints: readonly RecordEndpoint[];
}

/** What the emulator knows when it creates a record. */
export interface RecordInit {
  /** The record's number: its id is `recordId(seq)`. */
  seq: number;
  state: 'pending' | 'filtered';
  type: MessageType;
  source: RecordSource;
  origin: DeliveryRecord['origin'];
  /**
   * The body's UTF-8 bytes as they are signed and sent (empty when no message could be built): an
   * exact-size array of its own (`bodyBytes`), never a view into a shared pool.
   */
  bytes: Uint8Array;
  /** The `X-Signature` sent with it, when signed. */
  signature: string | undefined;
  receivedMs: number;
  reason: string | undefined;
  replayOf: string | undefined;
  /** For a duplicate the intake acknowledged: the record that first took its messageId. */
  duplicateOf?: string;
  /** For a Webhooks (Actions) record: its subscription, method and batch size. */
  actions?: ActionsRecordInfo;
}

const utf8 = new TextDecoder();
const encoder = new TextEncoder();

/**
 * A body's UTF-8 bytes in an array of their own, exactly as long as they are: what a record keeps.
 * (`Buffer.from` would hand out a view into Node's shared 8 KB pool for a small body, keeping the
 * whole pool alive as long as the record.)
 *
 * @example
 * bodyBytes('{"a":"—"}').byteLength === bodyBytes('{"a":"—"}').buffer.byteLength; // true
 */
export function bodyBytes(text: string): Uint8Array {
  return encoder.encode(text);
}

/**
 * The emulator's record: plain data. The body is kept once, as the bytes that were signed and sent
 * (a body with one character past Latin-1 would be two bytes a character as a JavaScript string);
 * `body` decodes them when read. The delivery engine adds attempts and sets the state through its
 * fields. To users it is the read-only `DeliveryRecord`.
 */
export class LoggedDelivery implements DeliveryRecord {
  readonly seq: number;
  readonly id: string;
  state: DeliveryState;
  readonly type: MessageType;
  readonly origin: DeliveryRecord['origin'];
  readonly source: RecordSource;
  /** The body as signed and sent: UTF-8 bytes in an exact-size array of their own. */
  readonly bytes: Uint8Array;
  readonly signature: string | undefined;
  readonly receivedMs: number;
  firstAttemptMs: number | undefined = undefined;
  nextAttemptMs: number | undefined = undefined;
  reason: string | undefined;
  /** The endpoint whose 2xx delivered the record (as resolved; shown masked as `deliveredTo`). */
  deliveredVia: RecordEndpoint | undefined = undefined;
  deliveredBy: number | undefined = undefined;
  readonly replayOf: string | undefined;
  readonly duplicateOf: string | undefined;
  readonly actions: ActionsRecordInfo | undefined;
  notes: readonly string[] | undefined = undefined;
  rawCall: string | undefined = undefined;
  // Made on the first entry, one slot long (an empty array's first push reserves 17): most records
  // have one attempt and no cancelled retry.
  #attempts: LoggedAttempt[] | undefined = undefined;
  #cancelled: CancelledRetry[] | undefined = undefined;
  #message: WebhookMessage | undefined = undefined;

  constructor(init: RecordInit) {
    this.seq = init.seq;
    this.id = recordId(init.seq);
    this.state = init.state;
    this.type = init.type;
    this.origin = init.origin;
    this.source = init.source;
    this.bytes = init.bytes;
    this.signature = init.signature;
    this.receivedMs = init.receivedMs;
    this.reason = init.reason;
    this.replayOf = init.replayOf;
    this.duplicateOf = init.duplicateOf;
    this.actions = init.actions;
  }

  get writeKey(): string {
    return this.source.writeKey;
  }

  get sourceName(): string | undefined {
    return this.source.name;
  }

  /** The endpoints the record is delivered to: its source's, as they were when it was received. */
  get endpoints(): readonly RecordEndpoint[] {
    return this.source.endpoints;
  }

  /** The body as UTF-8 text, decoded from the bytes on each read (they are what is kept). */
  get body(): string {
    return utf8.decode(this.bytes);
  }

  /** The body's length in UTF-8 bytes. */
  get bodyLength(): number {
    return this.bytes.byteLength;
  }

  get message(): WebhookMessage | undefined {
    if (this.#message !== undefined) return this.#message;
    if (this.bytes.byteLength === 0) return undefined;
    return (this.#message = JSON.parse(this.body) as WebhookMessage);
  }

  get deliveredTo(): string | undefined {
    const via = this.deliveredVia;
    return via === undefined ? undefined : redactUrl(via.url);
  }

  /** Keeps what the intake said about the call: its notes, and its text as sent (write key masked). */
  keepCall(notes: readonly string[] | undefined, rawCall: string | undefined): void {
    this.notes = notes;
    this.rawCall = rawCall;
  }

  get receivedAt(): string {
    return iso(this.receivedMs) as string;
  }

  get firstAttemptAt(): string | undefined {
    return iso(this.firstAttemptMs);
  }

  get nextAttemptAt(): string | undefined {
    return iso(this.nextAttemptMs);
  }

  get attempts(): readonly LoggedAttempt[] {
    return this.#attempts ?? NONE;
  }

  get cancelled(): readonly CancelledRetry[] {
    return this.#cancelled ?? NONE;
  }

  /** Logs an attempt that ended; returns it (for the `attempt` event). */
  addAttempt(init: AttemptInit): LoggedAttempt {
    const attempt = new LoggedAttempt(this, init);
    if (this.#attempts === undefined) this.#attempts = [attempt];
    else this.#attempts.push(attempt);
    return attempt;
  }

  /** Logs a retry that will not come because another endpoint accepted the message. */
  addCancelled(entry: CancelledRetry): void {
    if (this.#cancelled === undefined) this.#cancelled = [entry];
    else this.#cancelled.push(entry);
  }

  /** A plain object with every field, for `JSON.stringify` and logs: the signature shortened (`redactSignature`). */
  toJSON(): Record<string, unknown> {
    const signature = this.signature;
    return {
      id: this.id,
      state: this.state,
      type: this.type,
      writeKey: this.writeKey,
      sourceName: this.sourceName,
      origin: this.origin,
      message: this.message,
      body: this.body,
      signature: signature === undefined ? undefined : redactSignature(signature),
      receivedAt: this.receivedAt,
      firstAttemptAt: this.firstAttemptAt,
      nextAttemptAt: this.nextAttemptAt,
      attempts: this.attempts.map((a) => a.toJSON()),
      cancelled: this.cancelled,
      reason: this.reason,
      deliveredTo: this.deliveredTo,
      deliveredBy: this.deliveredBy,
      replayOf: this.replayOf,
      duplicateOf: this.duplicateOf,
      notes: this.notes,
      rawCall: this.rawCall,
    };
  }
}
