import { sign, type MessageType, type WebhookMessage } from '@hookgate/core';
import type { StoredBody } from './body-arena.js';
import type { PackedGroup } from './packed-group.js';
import { fromCompactMs, smallInteger, toCompactMs } from './compact-time.js';
import { requestHeaders } from '../delivery/request-headers.js';
import { redactHeaders, redactLocation, redactSignature, redactUrl, maskWriteKeyInJson } from '../redact.js';
import type { ResolvedEndpoint } from '../routing/source-settings.js';
import type { ActionsRecordInfo } from '../actions/actions-record-info.js';

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
 * One HTTP request to one endpoint (each delivery to an endpoint is one event).
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
   * about it (see `notes`) or refused it, and for a call that was filtered, read again from its
   * request's kept bytes.
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

const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());

/** The source a record came from, as it was when the record was made (settings are replaced, never changed). */
export interface RecordSource {
  readonly writeKey: string;
  readonly name: string | undefined;
  readonly sharedSecret: string | undefined;
  readonly endpoints: readonly ResolvedEndpoint[];
}

/** What the emulator knows when it creates a record. */
export interface RecordInit {
  /** The record's number: its id is `dlv_<seq>` (made when read: no string kept per record). */
  seq: number;
  state: 'pending' | 'filtered';
  type: MessageType;
  source: RecordSource;
  origin: DeliveryRecord['origin'];
  /** Where the body's UTF-8 bytes are (length 0 when no message could be built, or while deferred). */
  body: StoredBody;
  /** For a record that is never sent (filtered): what builds its body on first read, and its index there. */
  deferred?: { body: DeferredBody; index: number };
  /** Whether the body is signed (`X-Signature`) with the source's shared secret. */
  signed: boolean;
  receivedMs: number;
  reason: string | undefined;
  replayOf: string | undefined;
  /** For a duplicate the intake acknowledged: the record that first took its messageId. */
  duplicateOf?: string;
}

/**
 * Builds a filtered record's body only when someone reads it: a call that is never sent need not be
 * turned into a message, validated and serialized when it arrives (it is still recorded, with its reason).
 */
export interface DeferredBody {
  /** Builds the body of the `index`-th call it holds (one object serves every call of a request). */
  materialize(index: number): StoredBody;
  /** The `index`-th call's text as the client sent it, when the request's bytes are kept. */
  rawCall?(index: number): string | undefined;
}

const NO_ATTEMPTS = Object.freeze([]) as unknown as LoggedAttempt[];
const NO_CANCELLED: readonly CancelledRetry[] = Object.freeze([]);

// `#kind` packs the state, the origin and whether the body is signed into one small integer.
const STATES: readonly DeliveryState[] = ['pending', 'delivered', 'failed', 'filtered'];
const ORIGINS: ReadonlyArray<DeliveryRecord['origin']> = ['call', 'delete', 'audience', 'computed-trait', 'replay'];
const STATE_MASK = 0b11;
const ORIGIN_SHIFT = 2;
const ORIGIN_MASK = 0b111 << ORIGIN_SHIFT;
const SIGNED = 1 << 5;

/** The fields most records never set, kept apart so that a pending record does not carry six empty slots. */
interface RecordExtra {
  reason: string | undefined;
  deliveredTo: string | undefined;
  replayOf: string | undefined;
  message: WebhookMessage | undefined;
  cancelled: CancelledRetry[] | undefined;
  deferred: DeferredBody | undefined;
  duplicateOf: string | undefined;
  notes: readonly string[] | undefined;
  rawCall: string | undefined;
  /** Where a filtered call's text can be read again (kept past the body's materializing). */
  callFrom: { body: DeferredBody; index: number } | undefined;
}

/**
 * The emulator's record. Compact on purpose (100,000 records waiting for a retry peak near 200 MB of
 * RSS, about 192 bytes of heap each): the body is kept once, as the UTF-8 bytes that are sent
 * (half the memory of a JavaScript string with any non-Latin-1 character, and no re-encoding per
 * attempt), or deflated against its source's dictionary once many bodies are pending
 * (`packBodiesOver`); times are small integers; the state and origin share one; the signature is
 * made again from the body and the source's secret when read (HMAC is a pure function of them);
 * the first attempt is kept inline (its object is made when read); fields most records never set live apart; and the
 * delivery engine keeps its per-record state here (`round`, `engineBits`) instead of in an object of
 * its own. `body` and `message` are decoded when read.
 * The engine changes it through its methods; to users it is the read-only `DeliveryRecord`.
 */
export class LoggedDelivery implements DeliveryRecord {
  readonly #seq: number;
  #kind: number;
  readonly type: MessageType;
  readonly #source: RecordSource;
  #slab: Buffer;
  /** The body's offset in the slab; while the body is deferred, the call's index in its deferred body. */
  #start: number;
  #length: number;
  /** A packed body's group (then `#start` is the body's offset in the group's inflated bytes). */
  #packed: PackedGroup | undefined = undefined;
  // The first attempt, inline (most records have one: with a receiver down, 100,000 records waiting for
  // their retry would each carry an attempt object): its round, status and outcome packed (`packAttempt`;
  // -1: none inline), its endpoint, start, duration and answer. The attempt object is made when read.
  #firstBits = -1;
  #firstTo: AttemptEndpoint | undefined = undefined;
  #firstAt = 0;
  #firstDuration = 0;
  #firstAnswer: AttemptAnswer | undefined = undefined;
  /** The attempts after the first (or every attempt when the first could not be kept inline). */
  #moreAttempts: LoggedAttempt[] | undefined = undefined;
  // Times as compact offsets (see compact-time.ts): a small integer each, no 16-byte box.
  readonly #received: number;
  #firstAttempt: number | undefined = undefined;
  #nextAttempt: number | undefined = undefined;
  #extra: RecordExtra | undefined = undefined;
  /** The delivery engine's round counter for this record (0 before the first round). */
  round = 0;
  /** The delivery engine's per-endpoint bits for this record (which endpoints are retryable, queued, ...). */
  engineBits = 0;

  constructor(init: RecordInit) {
    this.#seq = init.seq;
    this.#kind =
      STATES.indexOf(init.state) |
      (ORIGINS.indexOf(init.origin) << ORIGIN_SHIFT) |
      (init.signed && init.source.sharedSecret !== undefined ? SIGNED : 0);
    this.type = init.type;
    this.#source = init.source;
    this.#slab = init.body.slab;
    this.#length = init.body.length;
    this.#packed = init.body.packed;
    this.#start = init.deferred ? init.deferred.index : init.body.start;
    if (init.deferred !== undefined || init.reason !== undefined || init.replayOf !== undefined) {
      const extra = this.extras();
      extra.deferred = init.deferred?.body;
      extra.callFrom = init.deferred;
      extra.reason = init.reason;
      extra.replayOf = init.replayOf;
      extra.duplicateOf = init.duplicateOf;
    }
    this.#received = toCompactMs(init.receivedMs);
  }

  // A TypeScript-private method, not a #method: a class with #methods gives every instance a brand slot.
  private extras(): RecordExtra {
    return (this.#extra ??= {
      reason: undefined,
      deliveredTo: undefined,
      replayOf: undefined,
      message: undefined,
      cancelled: undefined,
      deferred: undefined,
      duplicateOf: undefined,
      notes: undefined,
      rawCall: undefined,
      callFrom: undefined,
    });
  }

  get state(): DeliveryState {
    return STATES[this.#kind & STATE_MASK] as DeliveryState;
  }

  set state(state: DeliveryState) {
    this.#kind = (this.#kind & ~STATE_MASK) | STATES.indexOf(state);
  }

  get origin(): DeliveryRecord['origin'] {
    return ORIGINS[(this.#kind & ORIGIN_MASK) >> ORIGIN_SHIFT] as DeliveryRecord['origin'];
  }

  get writeKey(): string {
    return this.#source.writeKey;
  }

  get sourceName(): string | undefined {
    return this.#source.name;
  }

  /** The endpoints the record is delivered to: its source's, as they were when it was received. */
  get endpoints(): readonly ResolvedEndpoint[] {
    return this.#source.endpoints;
  }

  get reason(): string | undefined {
    return this.#extra?.reason;
  }

  set reason(reason: string | undefined) {
    if (reason !== undefined || this.#extra !== undefined) this.extras().reason = reason;
  }

  get deliveredTo(): string | undefined {
    return this.#extra?.deliveredTo;
  }

  set deliveredTo(url: string | undefined) {
    if (url !== undefined || this.#extra !== undefined) this.extras().deliveredTo = url;
  }

  get replayOf(): string | undefined {
    return this.#extra?.replayOf;
  }

  get duplicateOf(): string | undefined {
    return this.#extra?.duplicateOf;
  }

  get notes(): readonly string[] | undefined {
    return this.#extra?.notes;
  }

  get rawCall(): string | undefined {
    const extra = this.#extra;
    if (extra === undefined || extra.rawCall !== undefined) return extra?.rawCall;
    // A filtered call: its text is read again from the request's kept bytes (a scan, not kept as a string).
    const from = extra.callFrom;
    const raw = from?.body.rawCall?.(from.index);
    const writeKey = this.writeKey;
    return raw === undefined ? raw : maskWriteKeyInJson(raw, writeKey);
  }

  /** Keeps the intake's notes about the call and the call's text as sent (only for calls it has something to say about). */
  noteFromIntake(notes: readonly string[], rawCall: string | undefined): void {
    const extra = this.extras();
    extra.notes = notes;
    extra.rawCall = rawCall;
  }

  /** The `X-Signature` value, made from the body's bytes and the source's secret. */
  get signature(): string | undefined {
    return this.#kind & SIGNED ? this.signatureOf(this.bodyBytes) : undefined;
  }

  /** The signature of these bytes (the record's body, already at hand), or undefined for an unsigned record. */
  signatureOf(bodyBytes: Uint8Array): string | undefined {
    const secret = this.#source.sharedSecret;
    return this.#kind & SIGNED && secret !== undefined ? sign(bodyBytes, secret) : undefined;
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

  /** Every attempt, in the order they ended (made on each read: the first is kept inline). */
  get attempts(): readonly LoggedAttempt[] {
    const more = this.#moreAttempts;
    if (this.#firstBits < 0) return more ?? NO_ATTEMPTS;
    const first = new LoggedAttempt(
      this,
      this.#firstTo as AttemptEndpoint,
      this.#firstBits,
      this.#firstAt,
      this.#firstDuration,
      this.#firstAnswer as AttemptAnswer,
    );
    return more === undefined ? [first] : [first, ...more];
  }

  /** Logs an attempt that ended; returns it (for the `attempt` event). */
  addAttempt(init: AttemptInit): LoggedAttempt {
    const bits = packAttempt(init.round, init.status, init.outcome);
    const at = toCompactMs(init.atMs);
    const duration = smallInteger(Math.round(init.durationMs * 100));
    const attempt = new LoggedAttempt(
      this,
      init.to,
      bits,
      at,
      duration,
      init.answer,
      bits < 0 ? { round: init.round, status: init.status, outcome: init.outcome } : undefined,
    );
    // Inline only small integers: one fractional or far-off value would make V8 box that field in every record.
    if (
      this.#firstBits < 0 &&
      this.#moreAttempts === undefined &&
      bits >= 0 &&
      (at | 0) === at &&
      (duration | 0) === duration
    ) {
      this.#firstBits = bits;
      this.#firstTo = init.to;
      this.#firstAt = at;
      this.#firstDuration = duration;
      this.#firstAnswer = init.answer;
    } else {
      (this.#moreAttempts ??= []).push(attempt);
    }
    return attempt;
  }

  /** Builds a deferred body now (once). */
  private materialize(): void {
    const deferred = this.#extra?.deferred;
    if (deferred === undefined) return;
    (this.#extra as RecordExtra).deferred = undefined;
    const body = deferred.materialize(this.#start);
    this.#slab = body.slab;
    this.#start = body.start;
    this.#length = body.length;
  }

  /** Where the body's bytes are kept (packed or not). */
  get stored(): StoredBody {
    this.materialize();
    const packed = this.#packed;
    return packed === undefined
      ? { slab: this.#slab, start: this.#start, length: this.#length }
      : { slab: this.#slab, start: this.#start, length: this.#length, packed };
  }

  /** Points the record at its body's packed copy: `offset` bytes into what `group` inflates to (used by `BodyPacker`). */
  packInto(group: PackedGroup, offset: number): void {
    this.#slab = group.slab;
    this.#start = offset;
    this.#packed = group;
  }

  /** The body's length in bytes (UTF-8), without reading it. */
  get bodyLength(): number {
    this.materialize();
    return this.#length;
  }

  /** The body's bytes: a view made on each read (of the slab, or of its packed group inflated). Read-only. */
  get bodyBytes(): Buffer {
    this.materialize();
    const packed = this.#packed;
    const bytes = packed === undefined ? this.#slab : packed.inflate();
    return bytes.subarray(this.#start, this.#start + this.#length);
  }

  get body(): string {
    this.materialize();
    return (this.#packed === undefined ? this.#slab : this.#packed.inflate()).toString(
      'utf8',
      this.#start,
      this.#start + this.#length,
    );
  }

  get message(): WebhookMessage | undefined {
    this.materialize();
    if (this.#length === 0) return undefined;
    const extra = this.extras();
    extra.message ??= JSON.parse(this.body) as WebhookMessage;
    return extra.message;
  }

  get cancelled(): readonly CancelledRetry[] {
    return this.#extra?.cancelled ?? NO_CANCELLED;
  }

  /** Logs a retry that will not start. */
  addCancelled(c: CancelledRetry): void {
    (this.extras().cancelled ??= []).push(c);
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
      replayOf: this.replayOf,
      duplicateOf: this.duplicateOf,
      notes: this.notes,
      // Only a kept text: a listing of many filtered calls must not scan their requests again each.
      rawCall: this.#extra?.rawCall,
    };
  }
}

/**
 * An endpoint as attempts see it: the endpoint and the `User-Agent` sent to it. The engine makes one
 * per endpoint and every attempt to it shares it.
 */
export interface AttemptEndpoint {
  readonly endpoint: ResolvedEndpoint;
  readonly userAgent: string;
}

/**
 * What an endpoint answered to an attempt, or what went wrong: shared by the attempts that got the same
 * (a receiver down for hours answers the same thousands of times).
 */
export interface AttemptAnswer {
  readonly error: AttemptError | undefined;
  readonly responseBody: string | undefined;
  readonly responseHeaders: Readonly<Record<string, string>> | undefined;
}

/** What the engine knows when an attempt ends. */
export interface AttemptInit {
  to: AttemptEndpoint;
  round: number;
  atMs: number;
  status: number | undefined;
  answer: AttemptAnswer;
  durationMs: number;
  outcome: Attempt['outcome'];
}

const OUTCOMES: ReadonlyArray<Attempt['outcome']> = ['delivered', 'retry', 'fail'];
/** Rounds below this are packed with the status and outcome into one small integer. */
const PACKED_ROUNDS = 1 << 16;

/**
 * An attempt's round, status and outcome in one small integer: `(round × 1024 + status) × 4 + outcome`
 * (status 0: no answer came). -1 when they do not fit (a round past 65,535, a status past 999): the
 * record then keeps an attempt object, which stores the round apart.
 */
function packAttempt(round: number, status: number | undefined, outcome: Attempt['outcome']): number {
  const s = status ?? 0;
  if (!(round >= 0 && round < PACKED_ROUNDS && Number.isInteger(round) && s >= 0 && s <= 999 && Number.isInteger(s)))
    return -1;
  return (round * 1024 + s) * 4 + OUTCOMES.indexOf(outcome);
}

/**
 * The emulator's attempt: the `Attempt` fields, compact: its start time is a number; its round, status
 * and outcome share one small integer; its answer is shared; its body and request headers are rebuilt
 * from its record and endpoint when read (they are the same bytes and headers that were sent).
 */
export class LoggedAttempt implements Attempt {
  readonly #record: LoggedDelivery;
  readonly #to: AttemptEndpoint;
  /** `packAttempt(round, status, outcome)`, or -1 with `#unpacked` set. */
  readonly #bits: number;
  /** The start, as a compact offset (compact-time.ts). */
  readonly #at: number;
  /** The duration in hundredths of a millisecond: a small integer, where a fractional number would be boxed. */
  readonly #duration: number;
  readonly #answer: AttemptAnswer;
  readonly #unpacked: { round: number; status: number | undefined; outcome: Attempt['outcome'] } | undefined;

  /** Made by `LoggedDelivery.addAttempt` and when a record's attempts are read. */
  constructor(
    record: LoggedDelivery,
    to: AttemptEndpoint,
    bits: number,
    at: number,
    duration: number,
    answer: AttemptAnswer,
    unpacked?: { round: number; status: number | undefined; outcome: Attempt['outcome'] },
  ) {
    this.#record = record;
    this.#to = to;
    this.#bits = bits;
    this.#at = at;
    this.#duration = duration;
    this.#answer = answer;
    this.#unpacked = bits < 0 ? unpacked : undefined;
  }

  /** 1 for the first round (every endpoint), 2 for the first retry round, ... */
  get round(): number {
    return this.#bits < 0 ? (this.#unpacked?.round ?? 0) : Math.floor(this.#bits / 4096);
  }

  /** The answer's status, when an answer came. */
  get status(): number | undefined {
    if (this.#bits < 0) return this.#unpacked?.status;
    const status = Math.floor(this.#bits / 4) % 1024;
    return status === 0 ? undefined : status;
  }

  /** What the attempt led to for this endpoint. */
  get outcome(): Attempt['outcome'] {
    if (this.#bits < 0) return this.#unpacked?.outcome ?? 'fail';
    return OUTCOMES[this.#bits % 4] as Attempt['outcome'];
  }

  /** Response headers of interest (`retry-after`, `location`), when an answer came. */
  get responseHeaders(): Readonly<Record<string, string>> | undefined {
    return this.#answer.responseHeaders;
  }

  /** Up to the first 1 KB of the answer's body. */
  get responseBody(): string | undefined {
    return this.#answer.responseBody;
  }

  /** What went wrong; absent on a 2xx. */
  get error(): AttemptError | undefined {
    return this.#answer.error;
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
    return this.#to.endpoint;
  }

  get endpoint(): string {
    return redactUrl(this.#to.endpoint.url);
  }

  get at(): string {
    return iso(this.atMs) as string;
  }

  get body(): string {
    return this.#record.body;
  }

  get requestHeaders(): Readonly<Record<string, string>> {
    const r = this.#record;
    return Object.freeze(requestHeaders(this.#to.userAgent, this.#to.endpoint.headers, r.bodyLength, r.signature));
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
        this.responseHeaders?.location === undefined
          ? this.responseHeaders
          : { ...this.responseHeaders, location: redactLocation(this.responseHeaders.location) },
      responseBody: this.responseBody,
      durationMs: this.durationMs,
      error: this.error,
      outcome: this.outcome,
    };
  }
}
