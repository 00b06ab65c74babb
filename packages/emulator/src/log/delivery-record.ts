import type { MessageType, WebhookMessage } from '@hookgate/core';
import { bodyBytesOf, type StoredBody } from './body-arena.js';
import type { BodyDictionary } from './body-dictionary.js';
import { fromCompactMs, toCompactMs } from './compact-time.js';
import { requestHeaders } from '../delivery/request-headers.js';
import { redactHeaders, redactLocation, redactSignature, redactUrl } from '../redact.js';
import type { ResolvedEndpoint } from '../routing/source-settings.js';

/**
 * Where a delivery record stands. `filtered` records were never sent; `reason` says why.
 *
 * @example
 * const open = emulator.deliveries.filter((r) => r.state === ('pending' satisfies DeliveryState));
 */
export type DeliveryState = 'pending' | 'delivered' | 'failed' | 'filtered';

/**
 * Why an attempt did not succeed: `timeout` (no answer within `timeoutMs`), `connection` (refused,
 * reset, unreachable, DNS), `tls` (untrusted or self-signed certificate: no request was sent),
 * `redirect` (a 3xx, never followed), `http` (any other non-2xx status), `protocol` (a malformed
 * answer), `aborted` (`close()` ended it).
 *
 * @example
 * const retried: AttemptErrorCode[] = ['timeout', 'connection'];
 */
export type AttemptErrorCode = 'timeout' | 'connection' | 'tls' | 'redirect' | 'http' | 'protocol' | 'aborted';

/**
 * The error of a failed attempt.
 *
 * @example
 * if (attempt.error?.code === 'timeout') console.log(attempt.error.message);
 */
export interface AttemptError {
  /** The kind of failure. */
  code: AttemptErrorCode;
  /** A readable explanation, e.g. `500 Internal Server Error` or `ECONNRESET: socket hang up`. */
  message: string;
  /** The system error code when there is one, e.g. `ECONNREFUSED`, `DEPTH_ZERO_SELF_SIGNED_CERT`. */
  cause?: string;
}

/**
 * One HTTP request to one endpoint (seed §6: each delivery to an endpoint is one event).
 *
 * @example
 * emulator.on('attempt', (attempt) => console.log(attempt.endpoint, attempt.status ?? attempt.error?.code));
 */
export interface Attempt {
  /** The id of the delivery record this attempt belongs to. */
  readonly recordId: string;
  /** The endpoint URL as shown: password and query values masked (`redactUrl`); the request used the real one. */
  readonly endpoint: string;
  /** 1 for the first round (every endpoint), 2 for the first retry round, ... */
  readonly round: number;
  /** When the request started, ISO 8601 UTC on the emulator's clock. */
  readonly at: string;
  /** The request headers exactly as sent (the signature in full: this is your test's evidence). Frozen. */
  readonly requestHeaders: Readonly<Record<string, string>>;
  /** The request body: the exact bytes sent, as UTF-8 text. */
  readonly body: string;
  /** The answer's status, when an answer came. */
  readonly status?: number;
  /** Response headers of interest (`retry-after`, `location`), when an answer came. */
  readonly responseHeaders?: Readonly<Record<string, string>>;
  /** Up to the first 1 KB of the answer's body. */
  readonly responseBody?: string;
  /** Real milliseconds from the request's start to its end (answer read, error, or timeout). */
  readonly durationMs: number;
  /** What went wrong; absent on a 2xx. */
  readonly error?: AttemptError;
  /** What the attempt led to for this endpoint: delivered, retry in a later round, or given up. */
  readonly outcome: 'delivered' | 'retry' | 'fail';
}

/**
 * A retry that never started: another endpoint accepted the message while this one waited for its
 * turn in its endpoint's queue (at most `concurrency` requests in flight per endpoint).
 *
 * @example
 * emulator.on('cancelled', (c) => console.log(c.endpoint, c.reason)); // 'endpoint 1 (…) answered 200: …'
 */
export interface CancelledRetry {
  /** The id of the delivery record. */
  readonly recordId: string;
  /** The endpoint URL the retry was for. */
  readonly endpoint: string;
  /** The retry round it belonged to (2 or more: first attempts are never cancelled). */
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
   * The message (seed §2.2 shape), parsed from `body` on first read, so it is exactly what was sent;
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
  /** The id of the record this one replays. */
  readonly replayOf?: string;
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
 * An empty array with room for one element. `[]` grows to 16 slots on its first `push`; most
 * records have a single attempt, and 100,000 of them waiting for a retry would carry 13 MB of
 * empty slots.
 */
function oneSlotArray<T>(): T[] {
  const a: T[] = [undefined as T];
  a.pop();
  return a;
}

const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());

/** What the emulator knows when it creates a record. */
export interface RecordInit {
  /** The record's number: its id is `dlv_<seq>` (made when read: no string kept per record). */
  seq: number;
  state: 'pending' | 'filtered';
  type: MessageType;
  writeKey: string;
  sourceName: string | undefined;
  origin: DeliveryRecord['origin'];
  /** Where the body's UTF-8 bytes are (length 0 when no message could be built, or while deferred). */
  body: StoredBody;
  /** For a record that is never sent (filtered): what builds its body on first read, and its index there. */
  deferred?: { body: DeferredBody; index: number };
  signature: string | undefined;
  receivedMs: number;
  reason: string | undefined;
  replayOf: string | undefined;
}

/**
 * Builds a filtered record's body only when someone reads it: a call that is never sent need not be
 * turned into a message, validated and serialized when it arrives (it is still recorded, with its reason).
 */
export interface DeferredBody {
  /** Builds the body of the `index`-th call it holds (one object serves every call of a request). */
  materialize(index: number): StoredBody;
}

const NO_ATTEMPTS = Object.freeze([]) as unknown as LoggedAttempt[];
const NO_CANCELLED: readonly CancelledRetry[] = Object.freeze([]);

/**
 * The emulator's record. Compact on purpose (100,000 records waiting for a retry stay under 200 MB of
 * peak RSS): the body is kept once, as the UTF-8 bytes that are sent (half the memory of a JavaScript
 * string with any non-Latin-1 character, and no re-encoding per attempt), or deflated against its
 * source's dictionary once many bodies are pending (`packBodiesOver`); times are numbers; `body` and
 * `message` are decoded when read.
 * The engine changes it through its methods; to users it is the read-only `DeliveryRecord`.
 */
export class LoggedDelivery implements DeliveryRecord {
  readonly #seq: number;
  state: DeliveryState;
  readonly type: MessageType;
  readonly writeKey: string;
  readonly sourceName: string | undefined;
  readonly origin: DeliveryRecord['origin'];
  #slab: Buffer;
  #start: number;
  #length: number;
  /** A packed body: its deflated bytes' count in the slab, and the dictionary that inflates them. */
  #packedBytes = 0;
  #dictionary: BodyDictionary | undefined = undefined;
  #deferred: DeferredBody | undefined;
  readonly signature: string | undefined;
  readonly attempts: LoggedAttempt[];
  reason: string | undefined;
  deliveredTo: string | undefined = undefined;
  readonly replayOf: string | undefined;
  // Times as compact offsets (see compact-time.ts): a small integer each, no 16-byte box.
  readonly #received: number;
  #firstAttempt: number | undefined = undefined;
  #nextAttempt: number | undefined = undefined;
  #message: WebhookMessage | undefined = undefined;
  #cancelled: CancelledRetry[] | undefined = undefined;

  constructor(init: RecordInit) {
    this.#seq = init.seq;
    // A filtered record is never attempted: it shares one frozen empty list.
    this.attempts = init.state === 'filtered' ? NO_ATTEMPTS : oneSlotArray();
    this.state = init.state;
    this.type = init.type;
    this.writeKey = init.writeKey;
    this.sourceName = init.sourceName;
    this.origin = init.origin;
    this.#slab = init.body.slab;
    this.#length = init.body.length;
    if (init.body.packed !== undefined) {
      this.#packedBytes = init.body.packed.bytes;
      this.#dictionary = init.body.packed.dictionary;
    }
    // While the body is deferred, #start holds the call's index in its deferred body (no extra field).
    this.#deferred = init.deferred?.body;
    this.#start = init.deferred ? init.deferred.index : init.body.start;
    this.signature = init.signature;
    this.reason = init.reason;
    this.replayOf = init.replayOf;
    this.#received = toCompactMs(init.receivedMs);
  }

  /** When the emulator received the call, epoch ms on its clock. */
  get receivedMs(): number {
    return fromCompactMs(this.#received);
  }

  /** When the first attempt started, epoch ms. */
  get firstAttemptMs(): number | undefined {
    return this.#firstAttempt === undefined ? undefined : fromCompactMs(this.#firstAttempt);
  }

  set firstAttemptMs(ms: number | undefined) {
    this.#firstAttempt = ms === undefined ? undefined : toCompactMs(ms);
  }

  /** When the next retry round is due, epoch ms, while one is scheduled. */
  get nextAttemptMs(): number | undefined {
    return this.#nextAttempt === undefined ? undefined : fromCompactMs(this.#nextAttempt);
  }

  set nextAttemptMs(ms: number | undefined) {
    this.#nextAttempt = ms === undefined ? undefined : toCompactMs(ms);
  }

  get id(): string {
    return `dlv_${this.#seq}`;
  }

  /** The record's number (the digits of its id). */
  get seq(): number {
    return this.#seq;
  }

  /** Builds a deferred body now (once). */
  #materialize(): void {
    const deferred = this.#deferred;
    if (deferred === undefined) return;
    this.#deferred = undefined;
    const body = deferred.materialize(this.#start);
    this.#slab = body.slab;
    this.#start = body.start;
    this.#length = body.length;
  }

  /** Where the body's bytes are kept (packed or not). */
  get stored(): StoredBody {
    this.#materialize();
    const dictionary = this.#dictionary;
    return dictionary === undefined
      ? { slab: this.#slab, start: this.#start, length: this.#length }
      : { slab: this.#slab, start: this.#start, length: this.#length, packed: { bytes: this.#packedBytes, dictionary } };
  }

  /** The body's length in bytes (UTF-8), without reading it. */
  get bodyLength(): number {
    this.#materialize();
    return this.#length;
  }

  /** The body's bytes: a view made on each read, or a new buffer for a packed body. */
  get bodyBytes(): Buffer {
    this.#materialize();
    if (this.#dictionary === undefined) return this.#slab.subarray(this.#start, this.#start + this.#length);
    return bodyBytesOf(this.stored);
  }

  get body(): string {
    this.#materialize();
    if (this.#dictionary === undefined) return this.#slab.toString('utf8', this.#start, this.#start + this.#length);
    return this.bodyBytes.toString('utf8');
  }

  get message(): WebhookMessage | undefined {
    this.#materialize();
    if (this.#message === undefined && this.#length > 0) this.#message = JSON.parse(this.body) as WebhookMessage;
    return this.#message;
  }

  get cancelled(): readonly CancelledRetry[] {
    return this.#cancelled ?? NO_CANCELLED;
  }

  /** Logs a retry that will not start. */
  addCancelled(c: CancelledRetry): void {
    (this.#cancelled ??= []).push(c);
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

  /** A plain object with every field, for `JSON.stringify` and logs: the signature shortened (`redactSignature`). */
  toJSON(): Record<string, unknown> {
    return {
      id: this.id,
      state: this.state,
      type: this.type,
      writeKey: this.writeKey,
      sourceName: this.sourceName,
      origin: this.origin,
      message: this.message,
      body: this.body,
      signature: this.signature === undefined ? undefined : redactSignature(this.signature),
      receivedAt: this.receivedAt,
      firstAttemptAt: this.firstAttemptAt,
      nextAttemptAt: this.nextAttemptAt,
      attempts: this.attempts.map((a) => a.toJSON()),
      cancelled: this.cancelled,
      reason: this.reason,
      deliveredTo: this.deliveredTo,
      replayOf: this.replayOf,
    };
  }
}

/** What the engine knows when an attempt ends. */
export interface AttemptInit {
  record: LoggedDelivery;
  endpoint: ResolvedEndpoint;
  userAgent: string;
  round: number;
  atMs: number;
  status: number | undefined;
  responseHeaders: Readonly<Record<string, string>> | undefined;
  responseBody: string | undefined;
  durationMs: number;
  error: AttemptError | undefined;
  outcome: Attempt['outcome'];
}

/**
 * The emulator's attempt: the `Attempt` fields, compact: its start time is a number, and its body
 * and request headers are rebuilt from its record and endpoint when read (they are the same bytes
 * and headers that were sent).
 */
export class LoggedAttempt implements Attempt {
  readonly #record: LoggedDelivery;
  readonly #endpoint: ResolvedEndpoint;
  readonly #userAgent: string;
  readonly round: number;
  /** The start, as a compact offset (compact-time.ts). */
  readonly #at: number;
  readonly status: number | undefined;
  readonly responseHeaders: Readonly<Record<string, string>> | undefined;
  readonly responseBody: string | undefined;
  /** The duration in hundredths of a millisecond: a small integer, where a fractional number would be boxed. */
  readonly #duration: number;
  readonly error: AttemptError | undefined;
  readonly outcome: Attempt['outcome'];

  constructor(init: AttemptInit) {
    this.#record = init.record;
    this.#endpoint = init.endpoint;
    this.#userAgent = init.userAgent;
    this.round = init.round;
    this.#at = toCompactMs(init.atMs);
    this.status = init.status;
    this.responseHeaders = init.responseHeaders;
    this.responseBody = init.responseBody;
    this.#duration = Math.round(init.durationMs * 100);
    this.error = init.error;
    this.outcome = init.outcome;
  }

  get recordId(): string {
    return this.#record.id;
  }

  /** When the request started, epoch ms on the emulator's clock. */
  get atMs(): number {
    return fromCompactMs(this.#at);
  }

  get durationMs(): number {
    return this.#duration / 100;
  }

  /** The endpoint this attempt went to, as the engine resolved it. */
  get resolvedEndpoint(): ResolvedEndpoint {
    return this.#endpoint;
  }

  get endpoint(): string {
    return redactUrl(this.#endpoint.url);
  }

  get at(): string {
    return iso(this.atMs) as string;
  }

  get body(): string {
    return this.#record.body;
  }

  get requestHeaders(): Readonly<Record<string, string>> {
    const r = this.#record;
    return Object.freeze(requestHeaders(this.#userAgent, this.#endpoint.headers, r.bodyLength, r.signature));
  }

  /** A plain object with every field, for `JSON.stringify` and logs: no credential (`redactHeaders`). */
  toJSON(): Record<string, unknown> {
    return {
      recordId: this.recordId,
      endpoint: this.endpoint,
      round: this.round,
      at: this.at,
      requestHeaders: redactHeaders(this.requestHeaders),
      body: this.body,
      status: this.status,
      responseHeaders:
        this.responseHeaders?.location === undefined ? this.responseHeaders : { ...this.responseHeaders, location: redactLocation(this.responseHeaders.location) },
      responseBody: this.responseBody,
      durationMs: this.durationMs,
      error: this.error,
      outcome: this.outcome,
    };
  }
}
