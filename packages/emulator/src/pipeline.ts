import { sign, ValidationError, type MessageType, type WebhookMessage } from '@hookgate/core';
import { callIssues, type Call } from '@hookgate/core/calls';
import type { ActionsRecordInfo } from './log/actions-record-info.js';
import { actionsPolicyOf } from './actions/actions-response-policy.js';
import { ActionsRouter } from './actions/actions-router.js';
import { markBatchStandIn } from './actions/batch-stand-in.js';
import { createDebugLog, type DebugLog } from './debug-log.js';
import type { DeliveryPolicy } from './delivery/delivery-policy.js';
import { DeliveryEngine } from './delivery/engine.js';
import { classicPolicy } from './delivery/response-policy.js';
import { EmulatorClosedError } from './errors.js';
import { maskWriteKeyInJson } from './redact.js';
import type { IngestOptions } from './ingest.js';
import { DeliveryLog } from './log/delivery-log.js';
import {
  LoggedDelivery,
  type DeferredBody,
  type DeliveryRecord,
  type RecordInit,
  type RecordSource,
} from './log/delivery-record.js';
import { EventHub } from './log/events.js';
import type { ResolvedOptions } from './options.js';
import { DeferredCallBodies } from './routing/deferred-call-bodies.js';
import { routeCall } from './routing/route-call.js';
import { serializeMessage } from './routing/serialize.js';
import { SourceRegistry, type SourceState } from './routing/source-registry.js';
import { callToMessage } from './routing/transform.js';
import { blockedByPlan, withSchemaControls } from './protocols/apply-schema-controls.js';
import { forwardBlocked } from './routing/forward-blocked.js';
import type { CallSource } from './routing/deferred-call-bodies.js';

/** A record about to be made: what it is, where it came from, its message or why it is not sent. */
export interface NewRecord {
  type: MessageType;
  source: SourceState;
  origin: DeliveryRecord['origin'];
  message: WebhookMessage | undefined;
  receivedMs: number;
  filteredReason: string | undefined;
  replayOf?: string;
  /** The body as it was signed (a replay's), instead of one built from `message` or `text`. */
  body?: string | Uint8Array;
  /** Its signature, when the body is given or its signature is not the classic one (Webhooks (Actions)). */
  signature?: string;
  /** A filtered call's body, built when read. */
  deferred?: { body: DeferredBody; index: number };
  /** The body's text when it is not a classic message's (a Webhooks (Actions) request). */
  text?: string;
  /** Where and how the record is sent, when not to its source's classic endpoints (Webhooks (Actions)). */
  recordSource?: RecordSource;
  /** For a Webhooks (Actions) record: its subscription, method and batch size (then `signature` is its own). */
  actions?: ActionsRecordInfo;
  /** For a duplicate the intake acknowledged: the record that first took its messageId. */
  duplicateOf?: string;
  /** Stands for a call whose Webhooks (Actions) event waits in an open batch. */
  batchStandIn?: boolean;
}

function toMs(value: Date | number | string, name: string): number {
  const ms = value instanceof Date ? value.getTime() : typeof value === 'string' ? Date.parse(value) : value;
  if (typeof ms !== 'number' || !Number.isFinite(ms))
    throw new TypeError(`${name} must be a Date, epoch ms or ISO string (got ${String(value)})`);
  return ms;
}

/**
 * The emulator's pipeline, intake → routing → delivery → log: a call is checked, routed (sent or
 * filtered with its reason), turned into a message, serialized once, signed,
 * recorded in the delivery log, and handed to the delivery engine.
 *
 * @example
 * const pipeline = new Pipeline(resolveOptions({ sources: [{ writeKey: 'wk' }] }));
 * pipeline.ingest({ type: 'track', userId: 'u1', event: 'E' }, 'wk', undefined, 'ingest');
 */
export class Pipeline {
  readonly options: ResolvedOptions;
  readonly events = new EventHub();
  readonly debug: DebugLog | undefined;
  readonly engine: DeliveryEngine;
  readonly log: DeliveryLog;
  readonly sources = new SourceRegistry();
  /** The Webhooks (Actions) destination: subscriptions, mapping, batching; its records go through `record`. */
  readonly actions: ActionsRouter<SourceState>;
  /** How each destination's answers are judged. */
  readonly #classicPolicy: DeliveryPolicy;
  readonly #actionsPolicy: DeliveryPolicy;
  closed = false;
  /** What a deferred body needs, one object shared by all of them. */
  readonly #deferredContext: { options: ResolvedOptions };
  #lastDeferred: DeferredCallBodies | undefined = undefined;

  constructor(options: ResolvedOptions) {
    this.options = options;
    this.log = new DeliveryLog(options.maxRecords, options.maxLogBytes);
    this.#deferredContext = { options };
    this.#classicPolicy = classicPolicy(options.responsePolicy);
    this.#actionsPolicy = actionsPolicyOf(options.responsePolicy, options.responsePolicy.actions);
    this.debug = createDebugLog(options.debug);
    this.engine = new DeliveryEngine(options, this.events, this.debug);
    this.actions = new ActionsRouter(options.clock, (a) =>
      this.record({
        type: a.type,
        source: a.source,
        origin: 'call',
        message: undefined,
        receivedMs: a.receivedMs,
        filteredReason: a.filteredReason,
        text: a.text,
        recordSource: a.recordSource,
        signature: a.signature,
        actions: a.info,
      }),
    );
  }

  /** Throws `EmulatorClosedError` naming `method` once closed. */
  assertOpen(method: string): void {
    if (this.closed) throw new EmulatorClosedError(method);
  }

  /** A user's call (`track` & co., `ingest`): checked with core's `callIssues`, then accepted. */
  ingest(call: Call, writeKey: string, receivedAt: IngestOptions['receivedAt'], method: string): DeliveryRecord {
    this.assertOpen(method);
    const source = this.sources.get(writeKey);
    const issues = callIssues(call);
    if (issues.length > 0) {
      const type = typeof (call as { type?: unknown })?.type === 'string' ? (call as { type: string }).type : 'the';
      throw new ValidationError(issues, `${type} call`);
    }
    return this.accept(
      call,
      source,
      receivedAt === undefined ? this.options.clock.now() : toMs(receivedAt, 'receivedAt'),
      undefined,
      0,
    );
  }

  /**
   * Records a valid call: built, serialized and delivered, or filtered with its reason. A filtered call
   * that can be had again (`again`: the intake keeps the request's bytes) has its body built only if
   * read; a caller's own object is serialized at once, so that changing it later changes nothing.
   */
  accept(
    call: Call,
    source: SourceState,
    receivedMs: number,
    again: CallSource | undefined,
    index: number,
    forwarded = false,
  ): DeliveryRecord {
    source.usage++;
    if (typeof call.userId === 'string' && call.userId.length > 0) source.seenUsers.add(call.userId);
    // Blocked by the source's schema controls: for every destination, then forwarded if they say so.
    const protocols = source.resolved.protocols;
    const blocked = protocols && blockedByPlan(call, receivedMs, protocols);
    if (blocked !== undefined) {
      const { target, reason } = forwardBlocked(this.sources, forwarded ? undefined : protocols);
      const record = this.#filteredCall(call, source, receivedMs, again, index, blocked + reason);
      if (target !== undefined) this.accept(call, target, receivedMs, undefined, index, true);
      return record;
    }
    if (source.resolved.actions !== undefined) {
      const actions = this.actions.route(call, source, receivedMs);
      // A source with Webhooks (Actions) only: the call's first Actions record stands for it, else one
      // record saying why none was made now (no subscription matched, or the event waits in a batch).
      if (!source.resolved.connected) {
        const first = actions.records[0];
        if (first !== undefined) return first;
        const reason =
          actions.reason ??
          `Webhooks (Actions): the event waits in the open batch of subscription ${actions.batchedIn.join(', ')}; the batch's record is made when it is sent (batch_size, webhooksActions.batchWindowMs, drain() or close())`;
        // Marked as it is made, so that whoever the 'filtered' event reaches already sees a stand-in.
        const standIn = this.record({
          type: call.type,
          source,
          origin: 'call',
          message: undefined,
          receivedMs,
          filteredReason: reason,
          batchStandIn: true,
        });
        // Once a batch is sent, this record's reason names the batch record that carried the event.
        this.actions.waitingIn(standIn, actions);
        return standIn;
      }
    }
    const routed = routeCall(call, source.resolved);
    // A filtered call from the intake keeps a way back to its request's kept bytes instead of a body:
    // the message it would have sent is built only if read, and the call as the client sent it stays
    // visible. A call no message can be built from (no userId, say) is kept the same way.
    const built =
      routed === undefined
        ? withSchemaControls(callToMessage(call, receivedMs, this.options), source.resolved.protocols)
        : undefined;
    const filteredReason = routed ?? (built?.ok === false ? built.reason : undefined);
    if (filteredReason !== undefined && again !== undefined) {
      return this.#filteredCall(call, source, receivedMs, again, index, filteredReason);
    }
    const message = built?.ok ? built.message : routed === undefined ? undefined : this.#built(call, receivedMs);
    return this.record({ type: call.type, source, origin: 'call', message, receivedMs, filteredReason });
  }

  /**
   * A filtered call's record: from the intake, its message built only if read, from the request's kept
   * bytes; else the message it would have sent, if one can be built.
   */
  #filteredCall(
    call: Call,
    source: SourceState,
    receivedMs: number,
    again: CallSource | undefined,
    index: number,
    filteredReason: string,
  ): DeliveryRecord {
    const base = { type: call.type, source, origin: 'call', receivedMs, filteredReason } as const;
    if (again === undefined) return this.record({ ...base, message: this.#built(call, receivedMs) });
    again.pin();
    return this.record({
      ...base,
      message: undefined,
      deferred: { body: this.deferredFor(again, receivedMs), index },
    });
  }

  /** The message a filtered call of the library (not the intake) would have sent, if one can be built. */
  #built(call: Call, receivedMs: number): WebhookMessage | undefined {
    const built = callToMessage(call, receivedMs, this.options);
    return built.ok ? built.message : undefined;
  }

  /** Keeps what the intake noticed about a call on its record (inspector, JSON views) and says it in DEBUG. */
  noteFromIntake(record: DeliveryRecord, notes: readonly string[], rawCall: string | undefined): void {
    // The raw call of a single-call route is the whole body, which may carry the write key: masked like a secret.
    const raw = rawCall === undefined ? undefined : maskWriteKeyInJson(rawCall, record.writeKey);
    if (record instanceof LoggedDelivery) record.noteFromIntake(notes, raw);
    if (notes.length > 0) this.debug?.(`${record.receivedAt} ${record.id} ${record.type} note: ${notes.join(' ')}`);
  }

  /** The deferred bodies of the request `source` belongs to (one object per request, reused across its calls). */
  deferredFor(source: CallSource, receivedMs: number): DeferredCallBodies {
    const last = this.#lastDeferred;
    if (last !== undefined && last.source === source && last.receivedMs === receivedMs) return last;
    return (this.#lastDeferred = new DeferredCallBodies(source, receivedMs, this.#deferredContext));
  }

  /** Makes, logs and emits a record, and starts its delivery unless it is filtered. */
  record(r: NewRecord): DeliveryRecord {
    const pending = r.filteredReason === undefined;
    // A deferred body is built when read; a given one (a replay's) is kept as it was signed. A new one is
    // kept as the UTF-8 bytes that are signed and sent: half the memory of a string with any non-Latin-1
    // character, off the JavaScript heap (100,000 pending deliveries: bench/README.md), no encoding per attempt.
    const text = r.text ?? (r.message ? serializeMessage(r.message, this.options.serialization) : '');
    const body = r.deferred !== undefined ? '' : (r.body ?? (text.length > 0 ? Buffer.from(text) : ''));
    const bytes = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
    // Makes room in the log, or throws LogFullError before anything is recorded.
    this.log.admit(bytes);
    // Signed as it is made: a Webhooks (Actions) record brings its own signature (Segment's rule).
    const secret = r.source.resolved.sharedSecret;
    const signature = !pending
      ? undefined
      : r.actions !== undefined
        ? r.signature
        : secret === undefined
          ? undefined
          : sign(body, secret);
    const init: RecordInit = {
      seq: this.log.nextSeq(),
      state: pending ? 'pending' : 'filtered',
      type: r.type,
      source: r.recordSource ?? r.source.resolved,
      origin: r.origin,
      body,
      signature,
      receivedMs: r.receivedMs,
      reason: r.filteredReason,
      replayOf: r.replayOf,
      deferred: r.deferred,
      duplicateOf: r.duplicateOf,
      actions: r.actions,
    };
    const record = new LoggedDelivery(init);
    if (r.batchStandIn) markBatchStandIn(record);
    this.log.push(record, bytes);
    if (this.events.has('received')) this.events.emit('received', record);
    if (record.state === 'filtered') {
      this.debug?.(`${record.receivedAt} ${record.id} ${record.type} filtered: ${record.reason}`);
      if (this.events.has('filtered')) this.events.emit('filtered', record);
    } else {
      this.engine.deliver(record, record.actions ? this.#actionsPolicy : this.#classicPolicy);
    }
    return record;
  }
}
