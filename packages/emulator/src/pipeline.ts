import { sign, type MessageType, type WebhookMessage } from '@hookgate/core';
import type { Call } from '@hookgate/core/calls';
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
import { DeliveryLog } from './log/delivery-log.js';
import {
  bodyBytes,
  LoggedDelivery,
  type DeliveryRecord,
  type RecordInit,
  type RecordSource,
} from './log/delivery-record.js';
import { EventHub } from './log/events.js';
import type { ResolvedOptions } from './options.js';
import { routeCall } from './routing/route-call.js';
import { serializeMessage } from './routing/serialize.js';
import { SourceRegistry, type SourceState } from './routing/source-registry.js';
import { callToMessage } from './routing/transform.js';
import { blockedByPlan, withSchemaControls } from './protocols/apply-schema-controls.js';
import { forwardBlocked } from './routing/forward-blocked.js';

/** A record about to be made: what it is, where it came from, its message or why it is not sent. */
export interface NewRecord {
  type: MessageType;
  source: SourceState;
  origin: DeliveryRecord['origin'];
  message: WebhookMessage | undefined;
  receivedMs: number;
  filteredReason: string | undefined;
  replayOf?: string;
  /** The body as it was signed, when not a classic message's (a replay's, a Webhooks (Actions) request's). */
  body?: string;
  /** Its signature, when the body is given or its signature is not the classic one (Webhooks (Actions)). */
  signature?: string;
  /** Where and how the record is sent, when not to its source's classic endpoints (Webhooks (Actions)). */
  recordSource?: RecordSource;
  /** For a Webhooks (Actions) record: its subscription, method and batch size (then `signature` is its own). */
  actions?: ActionsRecordInfo;
  /** For a duplicate the intake acknowledged: the record that first took its messageId. */
  duplicateOf?: string;
  /** Stands for a call whose Webhooks (Actions) event waits in an open batch. */
  batchStandIn?: boolean;
  /** What the intake said about the call, and the call as the client sent it (write key not yet masked). */
  said?: CallSaid;
}

/**
 * What a front end (the intake) says about a call beside the call: its text as the client sent it
 * (read only when the record keeps it: the call is filtered, refused or noted) and notes in words.
 */
export interface CallSaid {
  rawCall?: (() => string | undefined) | undefined;
  notes?: readonly string[] | undefined;
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

  constructor(options: ResolvedOptions) {
    this.options = options;
    this.log = new DeliveryLog(options.maxRecords, options.maxLogBytes);
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
        body: a.text,
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

  /**
   * Records a checked call (see `IntakeHandoff`, the one way in): built, serialized, signed and
   * delivered, or filtered with its reason and the message it would have sent, if one can be built.
   */
  accept(call: Call, source: SourceState, receivedMs: number, said?: CallSaid, forwarded = false): DeliveryRecord {
    source.usage++;
    if (typeof call.userId === 'string' && call.userId.length > 0) source.seenUsers.add(call.userId);
    // Blocked by the source's schema controls: for every destination, then forwarded if they say so.
    const protocols = source.resolved.protocols;
    const blocked = protocols && blockedByPlan(call, receivedMs, protocols);
    if (blocked !== undefined) {
      const { target, reason } = forwardBlocked(this.sources, forwarded ? undefined : protocols);
      const record = this.#filteredCall(call, source, receivedMs, blocked + reason, said);
      if (target !== undefined) this.accept(call, target, receivedMs, undefined, true);
      return record;
    }
    if (source.resolved.actions !== undefined) {
      const actions = this.actions.route(call, source, receivedMs);
      // A source with Webhooks (Actions) only: the call's first Actions record stands for it, else one
      // record saying why none was made now (no subscription matched, or the event waits in a batch).
      if (!source.resolved.connected) {
        const first = actions.records[0];
        if (first !== undefined) {
          if (first instanceof LoggedDelivery) this.#keepSaid(first, said);
          return first;
        }
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
          said,
        });
        // Once a batch is sent, this record's reason names the batch record that carried the event.
        this.actions.waitingIn(standIn, actions);
        return standIn;
      }
    }
    const routed = routeCall(call, source.resolved);
    if (routed !== undefined) return this.#filteredCall(call, source, receivedMs, routed, said);
    const built = withSchemaControls(callToMessage(call, receivedMs, this.options), source.resolved.protocols);
    if (!built.ok) return this.#filteredCall(call, source, receivedMs, built.reason, said);
    return this.record({
      type: call.type,
      source,
      origin: 'call',
      message: built.message,
      receivedMs,
      filteredReason: undefined,
      said,
    });
  }

  /** A filtered call's record: with the message it would have sent, if one can be built. */
  #filteredCall(
    call: Call,
    source: SourceState,
    receivedMs: number,
    filteredReason: string,
    said: CallSaid | undefined,
  ): DeliveryRecord {
    const built = callToMessage(call, receivedMs, this.options);
    const message = built.ok ? built.message : undefined;
    return this.record({ type: call.type, source, origin: 'call', message, receivedMs, filteredReason, said });
  }

  /** Makes, logs and emits a record, and starts its delivery unless it is filtered. */
  record(r: NewRecord): DeliveryRecord {
    const pending = r.filteredReason === undefined;
    // The body is made now (a replay's or an Actions request's is given) and kept once, as the bytes
    // that are signed and sent.
    const body = bodyBytes(r.body ?? (r.message ? serializeMessage(r.message, this.options.serialization) : ''));
    const bytes = body.byteLength;
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
      bytes: body,
      signature,
      receivedMs: r.receivedMs,
      reason: r.filteredReason,
      replayOf: r.replayOf,
      duplicateOf: r.duplicateOf,
      actions: r.actions,
    };
    const record = new LoggedDelivery(init);
    if (r.batchStandIn) markBatchStandIn(record);
    this.#keepSaid(record, r.said);
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

  /**
   * Keeps on the record what the intake said about its call: its notes, and the call's text as sent
   * (write key masked) when the record is filtered or noted, where that text explains it. Said in DEBUG too.
   */
  #keepSaid(record: LoggedDelivery, said: CallSaid | undefined): void {
    if (said === undefined) return;
    const notes = said.notes !== undefined && said.notes.length > 0 ? said.notes : undefined;
    if (notes === undefined && record.state !== 'filtered') return;
    const raw = said.rawCall?.();
    record.keepCall(notes, raw === undefined ? undefined : maskWriteKeyInJson(raw, record.writeKey));
    if (notes !== undefined) this.debug?.(`${record.receivedAt} ${record.id} ${record.type} note: ${notes.join(' ')}`);
  }
}
