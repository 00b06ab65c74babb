import { ValidationError, type MessageType, type WebhookMessage } from '@hookgate/core';
import { callIssues, type Call } from '@hookgate/core/calls';
import { ActionsDelivery } from './actions/actions-delivery.js';
import { actionsPolicyOf } from './actions/actions-response-policy.js';
import { ActionsRouter } from './actions/actions-router.js';
import { markBatchStandIn } from './actions/batch-stand-in.js';
import { createDebugLog, type DebugLog } from './debug-log.js';
import { DeliveryEngine } from './delivery/engine.js';
import { EmulatorClosedError } from './errors.js';
import type { IntakeNote } from './intake/big-number-notes.js';
import { tooDeepAt } from './intake/json-depth.js';
import { MAX_CALL_DEPTH } from './intake/limits.js';
import { MessageIdWindow } from './intake/message-id-window.js';
import { maskWriteKeyInJson } from './redact.js';
import type { IngestOptions } from './ingest.js';
import { BodyArena, type StoredBody } from './log/body-arena.js';
import type { BodyPacker } from './log/body-packer.js';
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
import { withSchemaControls } from './protocols/apply-schema-controls.js';
import type { CallSource } from './trusted-ingest.js';

/** A record about to be made: what it is, where it came from, its message or why it is not sent. */
export interface NewRecord {
  type: MessageType;
  source: SourceState;
  origin: DeliveryRecord['origin'];
  message: WebhookMessage | undefined;
  receivedMs: number;
  filteredReason: string | undefined;
  replayOf?: string;
  body?: StoredBody;
  /** A filtered call's body, built when read. */
  deferred?: { body: DeferredBody; index: number };
  /** The body's text when it is not a classic message's (a Webhooks (Actions) request). */
  text?: string;
  /** Where and how the record is sent, when not to its source's classic endpoints (Webhooks (Actions)). */
  recordSource?: RecordSource;
  /** Makes the record (a Webhooks (Actions) record); default a classic `LoggedDelivery`. */
  make?: (init: RecordInit) => LoggedDelivery;
  /** For a duplicate the intake acknowledged: the record that first took its messageId. */
  duplicateOf?: string;
}

function toMs(value: Date | number | string, name: string): number {
  const ms = value instanceof Date ? value.getTime() : typeof value === 'string' ? Date.parse(value) : value;
  if (typeof ms !== 'number' || !Number.isFinite(ms))
    throw new TypeError(`${name} must be a Date, epoch ms or ISO string (got ${String(value)})`);
  return ms;
}

export const EMPTY_BODY: StoredBody = { slab: Buffer.alloc(0), start: 0, length: 0 };

/**
 * The emulator's pipeline, intake → routing → delivery → log: a call is checked, routed (sent or
 * filtered with its reason), turned into a message, serialized once into the body arena, signed,
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
  readonly bodies = new BodyArena();
  /** The Webhooks (Actions) destination: subscriptions, mapping, batching; its records go through `record`. */
  readonly actions: ActionsRouter;
  /** Bodies waiting for their packed group to fill: short-lived, so small slabs that are soon garbage. */
  readonly #staging = new BodyArena(64 * 1024);
  /** Sources whose packer may hold an open group, packed at the end of the current job. */
  readonly #packing = new Set<BodyPacker>();
  closed = false;
  /** The `(writeKey, messageId)` pairs the intake accepted within the dedupe window (absent when turned off). */
  readonly messageIds: MessageIdWindow | undefined;
  /** What a deferred body needs, one object shared by all of them. */
  readonly #deferredContext: { options: ResolvedOptions; bodies: BodyArena };
  #lastDeferred: DeferredCallBodies | undefined = undefined;

  constructor(options: ResolvedOptions) {
    this.options = options;
    this.log = new DeliveryLog(options.maxRecords);
    this.#deferredContext = { options, bodies: this.bodies };
    this.debug = createDebugLog(options.debug);
    this.engine = new DeliveryEngine(options, this.events, this.debug);
    const actionsPolicy = actionsPolicyOf(options.responsePolicy);
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
        make: (init) => new ActionsDelivery(init, a.info, a.signature, actionsPolicy),
      }),
    );
    this.messageIds = options.dedupe && new MessageIdWindow(options.dedupe.windowMs, options.dedupe.maxEntries);
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
    // Refused before anything is counted: serializing (or mapping) a call nested thousands of levels
    // deep would overflow the stack halfway through accepting it. The intake checks the same bound.
    const deep = tooDeepAt(call, MAX_CALL_DEPTH, '$');
    if (deep !== undefined) {
      throw new ValidationError(
        [
          {
            path: deep,
            message: `nests deeper than ${MAX_CALL_DEPTH} levels of objects and arrays (the limit per call); flatten it or send it as a string`,
          },
        ],
        `${call.type} call`,
      );
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
  ): DeliveryRecord {
    source.usage++;
    if (typeof call.userId === 'string' && call.userId.length > 0) source.seenUsers.add(call.userId);
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
        const make = (init: RecordInit) => {
          const record = new LoggedDelivery(init);
          markBatchStandIn(record);
          return record;
        };
        const standIn = this.record({
          type: call.type,
          source,
          origin: 'call',
          message: undefined,
          receivedMs,
          filteredReason: reason,
          make,
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
      again.pin();
      return this.record({
        type: call.type,
        source,
        origin: 'call',
        message: undefined,
        deferred: { body: this.#deferredFor(again, receivedMs), index },
        receivedMs,
        filteredReason,
      });
    }
    const message = built?.ok ? built.message : routed === undefined ? undefined : this.#built(call, receivedMs);
    return this.record({ type: call.type, source, origin: 'call', message, receivedMs, filteredReason });
  }

  /** The message a filtered call of the library (not the intake) would have sent, if one can be built. */
  #built(call: Call, receivedMs: number): WebhookMessage | undefined {
    const built = callToMessage(call, receivedMs, this.options);
    return built.ok ? built.message : undefined;
  }

  /**
   * A call the intake validated: accepted as `accept` does, unless its `(writeKey, messageId)` was
   * accepted within the dedupe window, like the tracking API: then it is recorded `filtered` with
   * `duplicateOf` and a reason, and not delivered again (the client's answer was lost and it resent).
   */
  acceptFromIntake(
    call: Call,
    source: SourceState,
    receivedMs: number,
    again: CallSource | undefined,
    index: number,
    note?: IntakeNote,
  ): DeliveryRecord {
    const window = this.messageIds;
    const messageId = call.messageId;
    const writeKey = source.resolved.writeKey;
    const deduped = window !== undefined && typeof messageId === 'string' && messageId.length > 0;
    const first = deduped ? window.firstSeen(writeKey, messageId, receivedMs) : undefined;
    if (!deduped || first === undefined) {
      const record = this.accept(call, source, receivedMs, again, index);
      if (deduped)
        window.remember(
          writeKey,
          messageId,
          receivedMs,
          record instanceof LoggedDelivery ? record.seq : Number(record.id.slice(4)),
        );
      if (note !== undefined) this.noteFromIntake(record, note);
      return record;
    }
    const hours = window.windowMs / 3_600_000;
    const span = Number.isInteger(hours) ? `${hours} h` : `${window.windowMs} ms`;
    const firstId = `dlv_${first}`;
    // The message it would have sent is built only if read, from the request's kept bytes (as for any filtered call).
    if (again !== undefined) again.pin();
    return this.record({
      type: call.type,
      source,
      origin: 'call',
      message: undefined,
      receivedMs,
      filteredReason: `duplicate: messageId ${JSON.stringify(messageId)} was already accepted as ${firstId}, within the ${span} dedupe window; acknowledged and not delivered again`,
      ...(again === undefined
        ? { body: EMPTY_BODY }
        : { deferred: { body: this.#deferredFor(again, receivedMs), index } }),
      duplicateOf: firstId,
    });
  }

  /** Keeps what the intake noticed about a call on its record (inspector, JSON views) and says it in DEBUG. */
  noteFromIntake(record: DeliveryRecord, note: IntakeNote): void {
    // The raw call of a single-call route is the whole body, which may carry the write key: masked like a secret.
    const writeKey = record.writeKey;
    const raw = note.rawCall === undefined ? undefined : maskWriteKeyInJson(note.rawCall, writeKey);
    if (record instanceof LoggedDelivery) record.noteFromIntake(note.notes, raw);
    if (note.notes.length > 0)
      this.debug?.(`${record.receivedAt} ${record.id} ${record.type} note: ${note.notes.join(' ')}`);
  }

  /** The deferred bodies of the request `source` belongs to (one object per request, reused across its calls). */
  #deferredFor(source: CallSource, receivedMs: number): DeferredCallBodies {
    const last = this.#lastDeferred;
    if (last !== undefined && last.source === source && last.receivedMs === receivedMs) return last;
    return (this.#lastDeferred = new DeferredCallBodies(source, receivedMs, this.#deferredContext));
  }

  /** Adds a record to its source's open group; what is left open is packed once the current job ends. */
  #pack(packer: BodyPacker, record: LoggedDelivery): void {
    if (this.#packing.size === 0) queueMicrotask(() => this.#closeGroups());
    this.#packing.add(packer);
    try {
      packer.add(record, this.bodies);
    } catch (error) {
      this.#packingFailed(error);
    }
  }

  #closeGroups(): void {
    for (const packer of this.#packing) {
      try {
        packer.close(this.bodies);
      } catch (error) {
        this.#packingFailed(error);
      }
    }
    this.#packing.clear();
  }

  /** The bodies stay unpacked (and exact): packing saves memory, it never decides what is sent. */
  #packingFailed(error: unknown): void {
    try {
      this.debug?.(
        `packing bodies failed, they stay unpacked: ${error instanceof Error ? error.message : String(error)}`,
      );
    } catch {
      // A debug function that throws must not turn a memory saving into an uncaught error (this may run in a microtask).
    }
  }

  /** Makes, logs and emits a record, and starts its delivery unless it is filtered. */
  record(r: NewRecord): DeliveryRecord {
    // A replay keeps the original's body as it is kept; a deferred body is built when read. A new body is
    // kept as UTF-8 bytes, or packed (deflated with a few others of its source) once the pending bodies
    // weigh more than `packBodiesOver`: a long backlog, e.g. an endpoint that is down.
    const backlog = this.engine.pendingBodyBytes >= this.options.packBodiesOver;
    let body = r.body;
    let pack = false;
    if (body === undefined) {
      if (r.deferred) body = EMPTY_BODY;
      else {
        const text = r.text ?? (r.message ? serializeMessage(r.message, this.options.serialization) : '');
        pack = backlog && text.length > 0;
        body = (pack ? this.#staging : this.bodies).store(text);
      }
    } else {
      // A replay of an unpacked body (its original's group may still be open, in the staging arena) is
      // packed as a new body would be, so that it never holds a staging slab for its life.
      pack = backlog && body.packed === undefined && body.length > 0;
    }
    const init: RecordInit = {
      seq: this.log.nextSeq(),
      state: r.filteredReason === undefined ? 'pending' : 'filtered',
      type: r.type,
      source: r.recordSource ?? r.source.resolved,
      origin: r.origin,
      body,
      signed: r.filteredReason === undefined && r.source.resolved.sharedSecret !== undefined,
      receivedMs: r.receivedMs,
      reason: r.filteredReason,
      replayOf: r.replayOf,
      deferred: r.deferred,
      duplicateOf: r.duplicateOf,
    };
    const record = r.make ? r.make(init) : new LoggedDelivery(init);
    if (pack) this.#pack(r.source.packer, record);
    this.log.push(record);
    if (this.events.has('received')) this.events.emit('received', record);
    if (record.state === 'filtered') {
      this.debug?.(`${record.receivedAt} ${record.id} ${record.type} filtered: ${record.reason}`);
      if (this.events.has('filtered')) this.events.emit('filtered', record);
    } else {
      this.engine.deliver(record);
    }
    return record;
  }
}
