import { sign, type MessageType, type SpecEvent, type WebhookMessage } from '@hookgate/core';
import { isDestinationEnabled, type Call } from '@hookgate/core/calls';
import type { Clock } from '../clock.js';
import type { DeliveryRecord, RecordSource } from '../log/delivery-record.js';
import { ACTIONS_USER_AGENT, type ActionsEndpoint } from './actions-delivery.js';
import { ActionsBatcher, type OpenBatch } from './actions-batcher.js';
import { actionsRequestHeaders, segmentHeaderOrder } from './actions-headers.js';
import type { ActionsRecordInfo } from '../log/actions-record-info.js';
import { markBatchStandIn } from './batch-stand-in.js';
import type { ResolvedActions, ResolvedSubscription } from './actions-settings.js';
import { mapEvent } from './map-event.js';
import { segmentSubscriptions } from './segment-code.js';
import { applySchemaControls } from '../protocols/apply-schema-controls.js';
import type { ResolvedProtocols } from '../protocols/schema-controls.js';
import { ACTIONS_DESTINATION, callToSpecEvent } from '../segment-event.js';

/**
 * What the Actions destination reads of a source (the pipeline's source state is one): its resolved
 * settings. The same object is handed back with each record request.
 *
 * @example
 * const source: ActionsSource = { resolved: { writeKey: 'wk', name: undefined, blockedEvents: new Set(), actions } };
 */
export interface ActionsSource {
  readonly resolved: {
    readonly writeKey: string;
    readonly name: string | undefined;
    readonly blockedEvents: ReadonlySet<string>;
    readonly actions: ResolvedActions | undefined;
    /** The tracking plan and its schema controls, when set. */
    readonly protocols?: ResolvedProtocols | undefined;
  };
}

/**
 * One Webhooks (Actions) record to make: the request's body, endpoint and signature (pending), or a
 * matched event whose mapping could not make a request (`filteredReason`).
 */
export interface ActionsRecordRequest<S extends ActionsSource = ActionsSource> {
  source: S;
  recordSource: RecordSource;
  type: MessageType;
  receivedMs: number;
  /** The body sent: `JSON.stringify(data)`, or a JSON array of a batch's data. */
  text: string;
  signature: string | undefined;
  info: ActionsRecordInfo;
  filteredReason: string | undefined;
}

/** What became of one call in the Actions destination. */
export interface ActionsRouting {
  /** Records made now (single events, batches this event filled, mapping failures), in subscription order. */
  readonly records: DeliveryRecord[];
  /** Subscriptions whose batch took the event (its record is made when the batch is sent). */
  readonly batchedIn: number[];
  /** The batches still open that hold the event (see `ActionsRouter.waitingIn`). */
  readonly openBatches: readonly OpenBatch<unknown>[];
  /** Why no subscription sent the event, when none did. */
  readonly reason: string | undefined;
}

interface BatchTarget<S> {
  source: S;
  recordSource: RecordSource;
  endpoint: ActionsEndpoint;
}

/** Most distinct endpoint/source pairs kept for reuse (a templated URL may make one per user). */
const TARGETS_KEPT = 1024;

/**
 * The Webhooks (Actions) destination of the emulator: turns a call into the whole Segment event,
 * matches it against each subscription with Segment's FQL code, maps it with Segment's
 * mapping-kit, and hands each request (one event, or a batch) to the pipeline as a record for the
 * same delivery engine, log and inspector as classic deliveries.
 *
 * @example
 * const router = new ActionsRouter(clock, (request) => pipeline.recordActions(request));
 * const { records, batchedIn, reason } = router.route(call, source, clock.now());
 */
export class ActionsRouter<S extends ActionsSource = ActionsSource> {
  readonly #record: (request: ActionsRecordRequest<S>) => DeliveryRecord;
  readonly #batcher: ActionsBatcher<BatchTarget<S>>;
  readonly #targets = new Map<string, BatchTarget<S>>();
  /** Which batch records carried a waiting call's event so far (its reason lists them). */
  readonly #carriedBy = new WeakMap<DeliveryRecord, string>();
  /** Collects the records `flushAll` makes. */
  #flushed: DeliveryRecord[] | undefined;

  constructor(clock: Clock, record: (request: ActionsRecordRequest<S>) => DeliveryRecord) {
    this.#record = record;
    this.#batcher = new ActionsBatcher(clock, (batch) => this.#sendBatch(batch));
  }

  /** Events waiting in open batches. */
  get waiting(): number {
    return this.#batcher.waiting;
  }

  /** Sends every open batch now; returns the batches' records. */
  flushAll(): DeliveryRecord[] {
    const made: DeliveryRecord[] = [];
    this.#flushed = made;
    try {
      this.#batcher.flushAll();
    } finally {
      this.#flushed = undefined;
    }
    return made;
  }

  /** Routes one accepted call of a source whose `webhooksActions` is set. */
  route(call: Call, source: S, receivedMs: number): ActionsRouting {
    const actions = source.resolved.actions as ResolvedActions;
    const none = (reason: string): ActionsRouting => ({ records: [], batchedIn: [], openBatches: [], reason });
    if (!actions.enabled)
      return none('the Webhooks (Actions) destination is disabled for this source (webhooksActions.enabled: false)');
    if (call.type === 'track' && source.resolved.blockedEvents.has(call.event))
      return none(
        `blocked by the source's schema: track event ${JSON.stringify(call.event)} is in schema.blockedEvents`,
      );
    if (!isDestinationEnabled(call.integrations, ACTIONS_DESTINATION))
      return none(
        `integrations: "${ACTIONS_DESTINATION}" is false, or All is false and "${ACTIONS_DESTINATION}" is not true`,
      );
    let event = callToSpecEvent(call, receivedMs);
    // The source's schema controls: omitted properties and traits, and violations, in context.protocols,
    // as the Webhooks destination's message has them (a call they block never reaches here).
    if (source.resolved.protocols !== undefined) {
      const outcome = applySchemaControls(event as unknown as WebhookMessage, source.resolved.protocols);
      if ('blocked' in outcome) return none(outcome.blocked);
      event = outcome.message as unknown as SpecEvent;
    }
    // eslint-disable-next-line @typescript-eslint/unbound-method -- validate is a CommonJS module's exported function, not a method that uses `this`
    const { validate } = segmentSubscriptions();
    const records: DeliveryRecord[] = [];
    const batchedIn: number[] = [];
    const openBatches: OpenBatch<BatchTarget<S>>[] = [];
    for (const sub of actions.subscriptions) {
      if (!sub.enabled || !validate(sub.condition, event)) continue;
      const mapped = mapEvent(sub, event);
      if (!mapped.ok) {
        records.push(
          this.#record({
            source,
            recordSource: this.#sourceOf(source, undefined),
            type: call.type,
            receivedMs,
            text: JSON.stringify(event),
            signature: undefined,
            // The mapping's method when it is literal (it made no request: a directive's value is unknown).
            info: infoOf(sub, literalMethod(sub), 1, false),
            filteredReason: mapped.reason,
          }),
        );
        continue;
      }
      const target = this.#target(source, mapped.url, mapped.parsed, mapped.method, mapped.headers);
      if (sub.batching) {
        const key = batchKey(source.resolved.writeKey, sub, mapped.url, mapped.method, mapped.headers);
        // A batch opened before the source was updated is sent first, as it was (its record is not this call's).
        this.#batcher.settle(key, sub);
        // An event that fills its batch sends it now: the batch's record is one of this call's records.
        const sent: DeliveryRecord[] = [];
        this.#flushed = sent;
        let open: OpenBatch<BatchTarget<S>> | undefined;
        try {
          open = this.#batcher.add(key, sub, actions.batchWindowMs, target, mapped.data, call.type, receivedMs);
        } finally {
          this.#flushed = undefined;
        }
        if (open !== undefined) openBatches.push(open);
        records.push(...sent);
        batchedIn.push(sub.number);
        continue;
      }
      // Data that came out empty: an empty body, unsigned (Segment's extendRequest signs only when there is data).
      const text = mapped.data === undefined ? '' : JSON.stringify(mapped.data);
      const secret = mapped.data === undefined ? undefined : target.recordSource.sharedSecret;
      records.push(
        this.#record({
          source,
          recordSource: target.recordSource,
          type: call.type,
          receivedMs,
          text,
          signature: secret === undefined ? undefined : sign(text, secret),
          info: infoOf(sub, mapped.method, 1, false),
          filteredReason: undefined,
        }),
      );
    }
    const reason =
      records.length === 0 && batchedIn.length === 0
        ? `no enabled Webhooks (Actions) subscription matches this ${call.type} event (${actions.subscriptions.map((s) => `${s.number}: ${s.subscribe}`).join('; ') || 'no subscriptions'})`
        : undefined;
    return { records, batchedIn, openBatches, reason };
  }

  /**
   * Registers the record that stands for a call whose event waits in open batches (`routing` from
   * `route`): when each batch is sent, the record's reason names the batch record that carried the
   * event, so the call's record leads to its delivery.
   */
  waitingIn(record: DeliveryRecord, routing: ActionsRouting): void {
    markBatchStandIn(record);
    for (const batch of routing.openBatches) batch.waiting.push(record);
  }

  #sendBatch(batch: OpenBatch<BatchTarget<S>>): void {
    const { target, data, subscription } = batch;
    const secret = target.recordSource.sharedSecret;
    // 3.387.0's extendRequest signs `payload[0].data` when the payload is an array: the first event only,
    // and nothing when that slot came out empty (JSON.stringify writes an empty slot as null).
    const first = data[0];
    const record = this.#record({
      source: target.source,
      recordSource: target.recordSource,
      type: batch.type,
      receivedMs: batch.firstReceivedMs,
      text: JSON.stringify(data),
      signature: secret !== undefined && first !== undefined ? sign(JSON.stringify(first), secret) : undefined,
      info: infoOf(subscription, target.endpoint.method, data.length, true),
      filteredReason: undefined,
    });
    this.#flushed?.push(record);
    for (const waiting of batch.waiting)
      this.#sentIn(waiting as DeliveryRecord, record, subscription.number, data.length);
  }

  /** Tells a waiting call's record which batch record carried its event (several, when several subscriptions batched it). */
  #sentIn(waiting: DeliveryRecord, batch: DeliveryRecord, subscription: number, size: number): void {
    const where = `${batch.id} (subscription ${subscription}, a batch of ${size})`;
    const before = this.#carriedBy.get(waiting);
    const list = before === undefined ? where : `${before}; ${where}`;
    this.#carriedBy.set(waiting, list);
    (waiting as { reason: string | undefined }).reason =
      `Webhooks (Actions): not sent on its own; its event was sent in the batch record ${list}: see that record for the delivery`;
  }

  #target(
    source: S,
    url: string,
    parsed: URL,
    method: ActionsEndpoint['method'],
    headers: Readonly<Record<string, string>>,
  ): BatchTarget<S> {
    const secret = source.resolved.actions?.sharedSecret;
    const key = `${source.resolved.writeKey}\n${secret ?? ''}\n${method}\n${url}\n${JSON.stringify(headers)}`;
    let target = this.#targets.get(key);
    // A source whose settings changed gets new targets (its state object stays, its resolved settings are replaced).
    if (target !== undefined && target.source === source && target.recordSource.name === source.resolved.name)
      return target;
    // Segment's request client sends Accept: */* unless the mapping sets Accept; Content-Type is the engine's (plain-object form).
    const plain: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) if (name.toLowerCase() !== 'content-type') plain[name] = value;
    const sent = Object.keys(plain).some((h) => h.toLowerCase() === 'accept') ? plain : { Accept: '*/*', ...plain };
    const mappedHeaders = Object.freeze(segmentHeaderOrder(headers));
    const userAgent = ACTIONS_USER_AGENT;
    const endpoint: ActionsEndpoint = Object.freeze({
      url,
      parsed,
      headers: Object.freeze(sent),
      mappedHeaders,
      method,
      userAgent,
      // The engine sends these lines as given: Segment's header block, names, case and order.
      headerBlock: (bodyLength: number, signature: string | undefined) =>
        actionsRequestHeaders({ userAgent, mappedHeaders }, bodyLength, signature),
    });
    target = { source, recordSource: this.#sourceOf(source, endpoint), endpoint };
    if (this.#targets.size >= TARGETS_KEPT) this.#targets.clear();
    this.#targets.set(key, target);
    return target;
  }

  #sourceOf(source: S, endpoint: ActionsEndpoint | undefined): RecordSource {
    return Object.freeze({
      writeKey: source.resolved.writeKey,
      name: source.resolved.name,
      sharedSecret: source.resolved.actions?.sharedSecret,
      endpoints: endpoint ? Object.freeze([endpoint]) : Object.freeze([]),
    });
  }
}

function infoOf(
  sub: ResolvedSubscription,
  method: ActionsRecordInfo['method'],
  batchSize: number,
  batch: boolean,
): ActionsRecordInfo {
  return Object.freeze({
    subscription: sub.number,
    ...(sub.name !== undefined ? { name: sub.name } : {}),
    subscribe: sub.subscribe,
    method,
    batchSize,
    batch,
  });
}

function literalMethod(sub: ResolvedSubscription): ActionsRecordInfo['method'] {
  const m = sub.mapping.method;
  return m === 'PUT' || m === 'PATCH' ? m : 'POST';
}

function batchKey(
  writeKey: string,
  sub: ResolvedSubscription,
  url: string,
  method: string,
  headers: Readonly<Record<string, string>>,
): string {
  const keys = sub.batchKeys;
  return [
    writeKey,
    sub.number,
    sub.subscribe,
    keys.includes('url') ? url : '',
    keys.includes('method') ? method : '',
    keys.includes('headers') ? JSON.stringify(headers) : '',
  ].join('\n');
}
