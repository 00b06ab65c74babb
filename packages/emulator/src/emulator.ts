import {
  callIssues,
  sign,
  ValidationError,
  type Call,
  type CallInput,
  type CallType,
  type MessageType,
  type WebhookMessage,
} from '@hookgate/core';
import { BodyArena, type StoredBody } from './body-arena.js';
import type { Clock } from './clock.js';
import { createDebugLog, type DebugLog } from './debug-log.js';
import { DeliveryEngine } from './delivery-engine.js';
import { LoggedDelivery, type CloseReport, type DeferredBody, type DeliveryRecord } from './delivery-record.js';
import { EmulatorClosedError, ReplayError, SettingsError, UnknownWriteKeyError } from './errors.js';
import { EventHub, type EmulatorEventName, type EmulatorEvents } from './events.js';
import { listenIntake, type IntakeListenOptions, type IntakeServer } from './intake/intake-server.js';
import { resolveOptions, type EmulatorOptions, type ResolvedOptions } from './options.js';
import { destinationBlock, routeCall } from './routing.js';
import { serializeMessage } from './serialize.js';
import { snakeCase } from './snake-case.js';
import { resolveSource, type ResolvedSource, type SourceSettings } from './source-settings.js';
import { TraitSyncs, type TraitChange } from './trait-syncs.js';
import { callToMessage, deleteMessage, traitIdentify } from './transform.js';
import { INGEST_VALIDATED, type CallSource, type TrustedIngest } from './trusted-ingest.js';

/**
 * Options of `identify`/`track`/... and the syncs: which source the data belongs to.
 *
 * @example
 * emulator.track({ userId: 'u1', event: 'E' }, { writeKey: 'wk_mobile' });
 */
export interface CallOptions {
  /** The source's write key. Default: the first configured source. */
  writeKey?: string;
}

/**
 * Options of `ingest` (the intake's entry point).
 *
 * @example
 * emulator.ingest(call, { writeKey: 'wk', receivedAt: new Date() });
 */
export interface IngestOptions {
  /** The source's write key (required: the intake read it from Basic auth or the body). */
  writeKey: string;
  /** When the call was received; default now on the emulator's clock. Used when the call has no timestamp. */
  receivedAt?: Date | number | string;
}

/**
 * How many records the delivery log holds and what it ever held, per state: `total` and the states count
 * every record since the emulator started, `evicted` ones included (see the `maxRecords` option).
 *
 * @example
 * const { total, failed, evicted } = emulator.deliveryCounts();
 */
export interface DeliveryCounts {
  /** Every record ever made. */
  total: number;
  pending: number;
  delivered: number;
  failed: number;
  filtered: number;
  /** Finished records dropped from `deliveries` to keep it within `maxRecords` (oldest first). */
  evicted: number;
}

/**
 * Options of `deleteUser`.
 *
 * @example
 * emulator.deleteUser('u1', { sources: ['wk_web', 'wk_app'] });
 */
export interface DeleteUserOptions {
  /** Write keys of the sources to notify. Default: every source in which the user was seen. */
  sources?: string[];
}

/**
 * The changeable parts of a source, for `updateSource`.
 *
 * @example
 * const patch: SourcePatch = { webhooks: { enabled: false, endpoints: [] } };
 */
export type SourcePatch = Partial<Omit<SourceSettings, 'writeKey'>>;

/**
 * A read-only view of one source (secrets and header values left out).
 *
 * @example
 * emulator.sources.map((s) => `${s.writeKey}: ${s.webhooks?.endpoints.length ?? 0} endpoints`);
 */
export interface SourceView {
  readonly writeKey: string;
  readonly name?: string;
  readonly webhooks?: {
    readonly enabled: boolean;
    readonly endpoints: ReadonlyArray<{ readonly url: string; readonly headerNames: readonly string[] }>;
    /** Whether a shared secret is set (requests carry `X-Signature`). */
    readonly signed: boolean;
  };
  readonly blockedEvents: readonly string[];
}

/**
 * The sender emulator: receives calls, turns them into Webhooks messages and delivers them like the
 * service does (signing, 5 s deadline, retries over 4 h, several endpoints), with a delivery log.
 *
 * @example
 * const emulator = createEmulator({ sources: [{ writeKey: 'wk', webhooks: { enabled: true, endpoints: [{ url }], sharedSecret: 's3cret' } }] });
 * const record = emulator.track({ userId: 'u1', event: 'Signed Up' });
 * await emulator.drain();
 * expect(record.state).toBe('delivered');
 * await emulator.close();
 */
export interface Emulator {
  /** The emulator's clock (`systemClock` or the `ManualClock` you passed). */
  readonly clock: Clock;
  /** The configured sources. */
  readonly sources: readonly SourceView[];
  /**
   * The delivery log, oldest first: every record, except finished ones (delivered, failed, filtered)
   * evicted oldest first once there are more than `maxRecords` (pending ones are never evicted).
   */
  readonly deliveries: readonly DeliveryRecord[];
  /**
   * Records per state since the start, evicted ones included.
   *
   * @example
   * expect(emulator.deliveryCounts()).toMatchObject({ total: 3, delivered: 3 });
   */
  deliveryCounts(): DeliveryCounts;

  /** Receives an identify call. @example emulator.identify({ userId: 'u1', traits: { plan: 'pro' } }) */
  identify(call: CallInput<'identify'>, options?: CallOptions): DeliveryRecord;
  /** Receives a track call. @example emulator.track({ userId: 'u1', event: 'Signed Up' }) */
  track(call: CallInput<'track'>, options?: CallOptions): DeliveryRecord;
  /** Receives a page call. @example emulator.page({ userId: 'u1', properties: { path: '/' } }) */
  page(call: CallInput<'page'>, options?: CallOptions): DeliveryRecord;
  /** Receives a screen call. @example emulator.screen({ userId: 'u1', name: 'Home' }) */
  screen(call: CallInput<'screen'>, options?: CallOptions): DeliveryRecord;
  /** Receives a group call. @example emulator.group({ userId: 'u1', groupId: 'acme' }) */
  group(call: CallInput<'group'>, options?: CallOptions): DeliveryRecord;
  /** Receives an alias call. @example emulator.alias({ previousId: 'anon_1', userId: 'u1' }) */
  alias(call: CallInput<'alias'>, options?: CallOptions): DeliveryRecord;

  /**
   * Receives any call for a source (what `track` & co. and the intake use). Throws a
   * `ValidationError` naming missing fields, an `UnknownWriteKeyError` for an unknown key.
   *
   * @example
   * emulator.ingest({ type: 'track', userId: 'u1', event: 'E' }, { writeKey: 'wk' });
   */
  ingest(call: Call, options: IngestOptions): DeliveryRecord;
  /** Whether a source has this write key. @example if (!emulator.hasSource(key)) reply(401) */
  hasSource(writeKey: string): boolean;
  /** Adds a source. @example emulator.addSource({ writeKey: 'wk2', webhooks: { enabled: true, endpoints: [{ url }] } }) */
  addSource(source: SourceSettings): SourceView;
  /**
   * Changes a source's name, webhooks or schema (records already pending keep their endpoints).
   *
   * @example
   * emulator.updateSource('wk', { webhooks: { enabled: false, endpoints: [] } });
   */
  updateSource(writeKey: string, patch: SourcePatch): SourceView;
  /** The source's API usage: calls received, filtered ones included (seed §4.3). @example emulator.usage('wk') */
  usage(writeKey: string): number;

  /**
   * Sends a delete notification to every affected source with webhooks enabled (seed §6).
   *
   * @example
   * const records = emulator.deleteUser('u1'); // one per source that saw u1
   */
  deleteUser(userId: string, options?: DeleteUserOptions): DeliveryRecord[];
  /**
   * An audience sync (seed §6): identify calls with the snake_case audience name as a trait, `true`
   * for new members, `false` for users who left; the first sync sends every member.
   *
   * @example
   * emulator.syncAudience('High Value Users', ['u1', 'u2']); // traits: { high_value_users: true }
   */
  syncAudience(name: string, memberUserIds: Iterable<string>, options?: CallOptions): DeliveryRecord[];
  /**
   * A computed-trait sync: identify calls with `{ [snake_case(name)]: value }` for users whose value
   * changed; `null` for a user no longer in the map.
   *
   * @example
   * emulator.syncComputedTrait('Lifetime Value', { u1: 120, u2: 80 });
   */
  syncComputedTrait(
    name: string,
    valuesByUserId: Record<string, unknown> | Map<string, unknown>,
    options?: CallOptions,
  ): DeliveryRecord[];

  /** A record by id (`undefined` once evicted, see `maxRecords`). @example emulator.get('dlv_1')?.state */
  get(id: string): DeliveryRecord | undefined;
  /**
   * Delivers a recorded message again, as a new record with `replayOf` (same body, signed with the
   * source's current secret, to its current endpoints; the call's integrations are not re-checked).
   *
   * @example
   * const again = emulator.replay(record.id);
   */
  replay(id: string): DeliveryRecord;
  /**
   * Starts a pending record's scheduled retry round now instead of at `nextAttemptAt` (the retry
   * window still counts from the first attempt). Returns false when the record has no retry waiting
   * (unknown, finished, or its attempts are still in flight).
   *
   * @example
   * if (emulator.retryNow('dlv_7')) console.log('retrying dlv_7 now');
   */
  retryNow(id: string): boolean;
  /** Subscribes to an event. @example emulator.on('attempt', (a) => console.log(a.status)) */
  on<K extends EmulatorEventName>(event: K, listener: EmulatorEvents[K]): this;
  /** Unsubscribes. @example emulator.off('attempt', listener) */
  off<K extends EmulatorEventName>(event: K, listener: EmulatorEvents[K]): this;
  /**
   * Resolves when no record is pending and no request is in flight (so every attempt is in the log).
   * On a `ManualClock` it moves virtual time as `runAll()` does.
   *
   * @example
   * await emulator.drain();
   */
  drain(): Promise<void>;
  /**
   * Stops: timers cleared, in-flight requests aborted; records not finished become `failed`
   * (`emulator closed before delivery`), are emitted as `failed` and reported.
   *
   * @example
   * const { pending } = await emulator.close();
   */
  close(): Promise<CloseReport>;
  /**
   * Serves the intake, the tracking HTTP API (`POST /v1/identify|track|page|screen|group|alias|batch|import`,
   * `GET /_hookgate/deliveries`, `GET /_hookgate/health`), on 127.0.0.1 and a free port by default, so
   * that real clients reach this emulator. Close it with the returned `close()`.
   *
   * @example
   * const intake = await emulator.listen({ port: 8080 });
   * const analytics = new Analytics({ writeKey: 'wk', host: intake.url }); // @segment/analytics-node
   */
  listen(options?: IntakeListenOptions): Promise<IntakeServer>;
}

interface SourceState {
  raw: SourceSettings;
  resolved: ResolvedSource;
  usage: number;
  seenUsers: Set<string>;
}

interface NewRecord {
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
}

function toMs(value: Date | number | string, name: string): number {
  const ms = value instanceof Date ? value.getTime() : typeof value === 'string' ? Date.parse(value) : value;
  if (typeof ms !== 'number' || !Number.isFinite(ms)) throw new TypeError(`${name} must be a Date, epoch ms or ISO string (got ${String(value)})`);
  return ms;
}

const EMPTY_BODY: StoredBody = { slab: Buffer.alloc(0), start: 0, length: 0 };

/** The numeric part of a record id (`dlv_42` → 42). */
const seqOf = (id: string) => Number(id.slice(4));

/**
 * The bodies of a request's filtered calls, built (message, check, serialization) only when read: a
 * call that is never sent is recorded at once, with its reason, and costs no message work unless
 * someone looks. The calls come from a `CallSource` (the intake keeps the request's bytes, not the
 * parsed objects); one object serves every call of the request.
 */
class DeferredCallBodies implements DeferredBody {
  constructor(
    readonly source: CallSource,
    readonly receivedMs: number,
    readonly emulator: { options: ResolvedOptions; bodies: BodyArena },
  ) {}

  materialize(index: number): StoredBody {
    const { options, bodies } = this.emulator;
    const built = callToMessage(this.source.callAt(index), this.receivedMs, options);
    return bodies.store(built.ok ? serializeMessage(built.message, options.serialization) : '');
  }
}

class EmulatorImpl implements Emulator, TrustedIngest {
  readonly clock: Clock;
  readonly #options: ResolvedOptions;
  readonly #events = new EventHub();
  readonly #log: DebugLog | undefined;
  readonly #engine: DeliveryEngine;
  readonly #sources = new Map<string, SourceState>();
  readonly #records: LoggedDelivery[] = [];
  /** Past this many records, finished ones are evicted at the next write (reads evict down to `maxRecords`). */
  #compactAt: number;
  readonly #evicted = { delivered: 0, failed: 0, filtered: 0 };
  readonly #syncs = new TraitSyncs();
  readonly #bodies = new BodyArena();
  /** What a deferred body needs of the emulator, one object shared by all of them. */
  readonly #deferredContext: { options: ResolvedOptions; bodies: BodyArena };
  #lastDeferred: DeferredCallBodies | undefined = undefined;
  #seq = 0;
  #closed = false;

  constructor(options: EmulatorOptions) {
    this.#options = resolveOptions(options);
    this.clock = this.#options.clock;
    this.#compactAt = this.#nextCompactAt();
    this.#deferredContext = { options: this.#options, bodies: this.#bodies };
    this.#log = createDebugLog(this.#options.debug);
    this.#engine = new DeliveryEngine(this.#options, this.#events, this.#log);
    const sources = options.sources ?? [];
    if (!Array.isArray(sources)) throw new SettingsError('sources', 'must be a list of { writeKey, name?, webhooks?, schema? }');
    sources.forEach((s, i) => this.#add(s, `sources[${i}]`));
  }

  get sources(): readonly SourceView[] {
    return [...this.#sources.values()].map((s) => view(s.resolved));
  }

  get deliveries(): readonly DeliveryRecord[] {
    if (this.#records.length > this.#options.maxRecords) this.#evict();
    return this.#records;
  }

  deliveryCounts(): DeliveryCounts {
    const e = this.#evicted;
    const counts: DeliveryCounts = { total: 0, pending: 0, delivered: e.delivered, failed: e.failed, filtered: e.filtered, evicted: 0 };
    counts.evicted = e.delivered + e.failed + e.filtered;
    for (const r of this.#records) counts[r.state]++;
    counts.total = counts.evicted + this.#records.length;
    return counts;
  }

  /** The deferred bodies of the request `source` belongs to (one object per request, reused across its calls). */
  #deferredFor(source: CallSource, receivedMs: number): DeferredCallBodies {
    const last = this.#lastDeferred;
    if (last !== undefined && last.source === source && last.receivedMs === receivedMs) return last;
    return (this.#lastDeferred = new DeferredCallBodies(source, receivedMs, this.#deferredContext));
  }

  /** The write length past which finished records are evicted: a slack above `maxRecords` keeps eviction amortized O(1). */
  #nextCompactAt(): number {
    const max = this.#options.maxRecords;
    return Math.max(this.#records.length, max) + Math.max(64, Math.floor(max / 8));
  }

  /**
   * Drops the oldest finished records until at most `maxRecords` remain (or only pending ones are
   * left to drop), in place: `deliveries` is the same array before and after.
   */
  #evict(): void {
    const records = this.#records;
    let excess = records.length - this.#options.maxRecords;
    let w = 0;
    for (let i = 0; i < records.length; i++) {
      const r = records[i] as LoggedDelivery;
      if (excess > 0 && r.state !== 'pending') {
        this.#evicted[r.state]++;
        excess--;
        continue;
      }
      if (w !== i) records[w] = r;
      w++;
    }
    records.length = w;
    this.#compactAt = this.#nextCompactAt();
  }

  identify(call: CallInput<'identify'>, options?: CallOptions) {
    return this.#call('identify', call, options);
  }
  track(call: CallInput<'track'>, options?: CallOptions) {
    return this.#call('track', call, options);
  }
  page(call: CallInput<'page'>, options?: CallOptions) {
    return this.#call('page', call, options);
  }
  screen(call: CallInput<'screen'>, options?: CallOptions) {
    return this.#call('screen', call, options);
  }
  group(call: CallInput<'group'>, options?: CallOptions) {
    return this.#call('group', call, options);
  }
  alias(call: CallInput<'alias'>, options?: CallOptions) {
    return this.#call('alias', call, options);
  }

  #call(type: CallType, call: object, options: CallOptions | undefined): DeliveryRecord {
    if (typeof call !== 'object' || call === null) {
      throw new ValidationError([{ path: '$', message: `must be a ${type} call object` }], `${type} call`);
    }
    return this.#ingest({ ...call, type } as Call, this.#writeKey(options?.writeKey), undefined, type);
  }

  ingest(call: Call, options: IngestOptions): DeliveryRecord {
    if (typeof options !== 'object' || options === null || typeof options.writeKey !== 'string')
      throw new TypeError('ingest(call, { writeKey }): writeKey is required');
    return this.#ingest(call, options.writeKey, options.receivedAt, 'ingest');
  }

  #ingest(call: Call, writeKey: string, receivedAt: IngestOptions['receivedAt'], method: string): DeliveryRecord {
    if (this.#closed) throw new EmulatorClosedError(method);
    const source = this.#source(writeKey);
    const issues = callIssues(call);
    if (issues.length > 0) {
      const type = typeof (call as { type?: unknown })?.type === 'string' ? (call as { type: string }).type : 'the';
      throw new ValidationError(issues, `${type} call`);
    }
    return this.#accept(call, source, receivedAt === undefined ? this.clock.now() : toMs(receivedAt, 'receivedAt'), undefined, 0);
  }

  /** The intake's path: the call was validated there (all or nothing), so it is not checked again. */
  [INGEST_VALIDATED](call: Call, writeKey: string, receivedMs: number, source?: CallSource, index = 0): DeliveryRecord {
    if (this.#closed) throw new EmulatorClosedError('ingest');
    return this.#accept(call, this.#source(writeKey), receivedMs, source, index);
  }

  /**
   * Records a valid call: built, serialized and delivered, or filtered with its reason. A filtered call
   * that can be had again (`again`: the intake keeps the request's bytes) has its body built only if
   * read; a caller's own object is serialized at once, so that changing it later changes nothing.
   */
  #accept(call: Call, source: SourceState, receivedMs: number, again: CallSource | undefined, index: number): DeliveryRecord {
    source.usage++;
    if (typeof call.userId === 'string' && call.userId.length > 0) source.seenUsers.add(call.userId);
    const routed = routeCall(call, source.resolved);
    if (routed !== undefined && again !== undefined) {
      again.pin();
      return this.#record({
        type: call.type,
        source,
        origin: 'call',
        message: undefined,
        deferred: { body: this.#deferredFor(again, receivedMs), index },
        receivedMs,
        filteredReason: routed,
      });
    }
    const built = callToMessage(call, receivedMs, this.#options);
    return this.#record({
      type: call.type,
      source,
      origin: 'call',
      message: built.ok ? built.message : undefined,
      receivedMs,
      filteredReason: routed ?? (built.ok ? undefined : built.reason),
    });
  }

  #record(r: NewRecord): DeliveryRecord {
    const body = r.body ?? (r.deferred ? EMPTY_BODY : this.#bodies.store(r.message ? serializeMessage(r.message, this.#options.serialization) : ''));
    const secret = r.source.resolved.sharedSecret;
    const record = new LoggedDelivery({
      seq: ++this.#seq,
      state: r.filteredReason === undefined ? 'pending' : 'filtered',
      type: r.type,
      writeKey: r.source.resolved.writeKey,
      sourceName: r.source.resolved.name,
      origin: r.origin,
      body,
      signature:
        r.filteredReason === undefined && secret !== undefined
          ? sign(body.slab.subarray(body.start, body.start + body.length), secret)
          : undefined,
      receivedMs: r.receivedMs,
      reason: r.filteredReason,
      replayOf: r.replayOf,
      deferred: r.deferred,
    });
    if (this.#records.push(record) > this.#compactAt) this.#evict();
    if (this.#events.has('received')) this.#events.emit('received', record);
    if (record.state === 'filtered') {
      this.#log?.(`${record.receivedAt} ${record.id} ${record.type} filtered: ${record.reason}`);
      if (this.#events.has('filtered')) this.#events.emit('filtered', record);
    } else {
      this.#engine.deliver(record, r.source.resolved.endpoints);
    }
    return record;
  }

  hasSource(writeKey: string): boolean {
    return this.#sources.has(writeKey);
  }

  addSource(source: SourceSettings): SourceView {
    if (this.#closed) throw new EmulatorClosedError('addSource');
    return view(this.#add(source, 'source').resolved);
  }

  #add(raw: SourceSettings, path: string): SourceState {
    const resolved = resolveSource(raw, path);
    if (this.#sources.has(resolved.writeKey))
      throw new SettingsError(`${path}.writeKey`, 'another source has this write key; write keys must be unique (use updateSource to change a source)');
    const state: SourceState = { raw: { ...raw }, resolved, usage: 0, seenUsers: new Set() };
    this.#sources.set(resolved.writeKey, state);
    return state;
  }

  updateSource(writeKey: string, patch: SourcePatch): SourceView {
    const state = this.#source(writeKey);
    if (typeof patch !== 'object' || patch === null) throw new SettingsError('patch', 'must be an object { name?, webhooks?, schema? }');
    if ('writeKey' in patch) throw new SettingsError('patch.writeKey', 'cannot change; add a new source instead');
    const raw = { ...state.raw, ...patch, writeKey } as SourceSettings;
    state.resolved = resolveSource(raw, 'patch');
    state.raw = raw;
    return view(state.resolved);
  }

  usage(writeKey: string): number {
    return this.#source(writeKey).usage;
  }

  deleteUser(userId: string, options: DeleteUserOptions = {}): DeliveryRecord[] {
    if (this.#closed) throw new EmulatorClosedError('deleteUser');
    if (typeof userId !== 'string' || userId.length === 0) throw new TypeError('deleteUser(userId): userId must be a non-empty string');
    let affected: SourceState[];
    if (options.sources !== undefined) {
      if (!Array.isArray(options.sources)) throw new TypeError('deleteUser(userId, { sources }): sources must be a list of write keys');
      affected = options.sources.map((k) => this.#source(k));
    } else {
      affected = [...this.#sources.values()].filter((s) => s.seenUsers.has(userId));
    }
    const now = this.clock.now();
    return affected.map((source) => {
      source.seenUsers.delete(userId);
      return this.#record({
        type: 'delete',
        source,
        origin: 'delete',
        message: deleteMessage(userId, now),
        receivedMs: now,
        filteredReason: destinationBlock(source.resolved),
      });
    });
  }

  syncAudience(name: string, memberUserIds: Iterable<string>, options?: CallOptions): DeliveryRecord[] {
    const trait = this.#traitName(name, 'syncAudience');
    if (memberUserIds === null || typeof (memberUserIds as Iterable<string>)?.[Symbol.iterator] !== 'function' || typeof memberUserIds === 'string')
      throw new TypeError('syncAudience(name, memberUserIds): memberUserIds must be a list (or Set) of userIds');
    const source = this.#source(this.#writeKey(options?.writeKey));
    return this.#traitRecords(source, trait, this.#syncs.audience(source.resolved.writeKey, trait, memberUserIds), 'audience');
  }

  syncComputedTrait(
    name: string,
    valuesByUserId: Record<string, unknown> | Map<string, unknown>,
    options?: CallOptions,
  ): DeliveryRecord[] {
    const trait = this.#traitName(name, 'syncComputedTrait');
    if (typeof valuesByUserId !== 'object' || valuesByUserId === null || Array.isArray(valuesByUserId))
      throw new TypeError('syncComputedTrait(name, valuesByUserId): valuesByUserId must be an object or Map of userId → value');
    const entries = valuesByUserId instanceof Map ? valuesByUserId.entries() : Object.entries(valuesByUserId);
    const source = this.#source(this.#writeKey(options?.writeKey));
    return this.#traitRecords(source, trait, this.#syncs.computed(source.resolved.writeKey, trait, entries), 'computed-trait');
  }

  #traitName(name: string, method: string): string {
    if (this.#closed) throw new EmulatorClosedError(method);
    const trait = typeof name === 'string' ? snakeCase(name) : '';
    if (!trait) throw new TypeError(`${method}(name, ...): name must contain letters or digits (got ${JSON.stringify(name)})`);
    return trait;
  }

  #traitRecords(source: SourceState, trait: string, changes: TraitChange[], origin: 'audience' | 'computed-trait'): DeliveryRecord[] {
    const now = this.clock.now();
    const blocked = destinationBlock(source.resolved);
    return changes.map(({ userId, value }) =>
      this.#record({
        type: 'identify',
        source,
        origin,
        message: traitIdentify(userId, { [trait]: value }, now),
        receivedMs: now,
        filteredReason: blocked,
      }),
    );
  }

  get(id: string): DeliveryRecord | undefined {
    return this.#find(id);
  }

  /** A record by id: records are in id order, so a binary search (no index to keep). */
  #find(id: string): LoggedDelivery | undefined {
    if (typeof id !== 'string' || !id.startsWith('dlv_')) return undefined;
    if (this.#records.length > this.#options.maxRecords) this.#evict();
    const seq = seqOf(id);
    const records = this.#records;
    let lo = 0;
    let hi = records.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const r = records[mid] as LoggedDelivery;
      const s = r.seq;
      if (s === seq) return r.id === id ? r : undefined;
      if (s < seq) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }

  replay(id: string): DeliveryRecord {
    if (this.#closed) throw new EmulatorClosedError('replay');
    const original = this.#find(id);
    if (!original) {
      const seq = typeof id === 'string' ? seqOf(id) : NaN;
      const evicted = seq >= 1 && seq <= this.#seq && id === `dlv_${seq}`;
      throw new ReplayError(id, evicted ? 'it was evicted from the delivery log (maxRecords keeps the newest finished records)' : 'no delivery record has this id');
    }
    if (original.stored.length === 0) throw new ReplayError(id, `it has no message to send (${original.reason ?? 'none was built'})`);
    const source = this.#source(original.writeKey);
    return this.#record({
      type: original.type,
      source,
      origin: 'replay',
      message: undefined,
      body: original.stored,
      receivedMs: this.clock.now(),
      filteredReason: destinationBlock(source.resolved),
      replayOf: original.id,
    });
  }

  retryNow(id: string): boolean {
    if (this.#closed) throw new EmulatorClosedError('retryNow');
    return typeof id === 'string' && this.#engine.retryNow(id);
  }

  on<K extends EmulatorEventName>(event: K, listener: EmulatorEvents[K]): this {
    this.#events.on(event, listener);
    return this;
  }

  off<K extends EmulatorEventName>(event: K, listener: EmulatorEvents[K]): this {
    this.#events.off(event, listener);
    return this;
  }

  async drain(): Promise<void> {
    const clock = this.clock as Clock & { runUntil?: (done: () => boolean) => Promise<boolean> };
    while (!this.#engine.idle) {
      if (typeof clock.runUntil === 'function') {
        if (await clock.runUntil(() => this.#engine.idle)) return;
        // Nothing due on the clock yet work is pending: wait a little real time for I/O.
        await Promise.race([this.#engine.whenIdle(), new Promise((r) => setTimeout(r, 5))]);
      } else {
        await this.#engine.whenIdle();
      }
    }
  }

  listen(options: IntakeListenOptions = {}): Promise<IntakeServer> {
    // The inspector shows time left in this emulator's retry window.
    const inspector = options.inspector === false ? false : { retryWindowMs: this.#options.retry.windowMs, ...options.inspector };
    return listenIntake(this, { ...options, inspector });
  }

  async close(): Promise<CloseReport> {
    if (this.#closed) return { pending: [] };
    this.#closed = true;
    return { pending: this.#engine.close() };
  }

  #source(writeKey: string): SourceState {
    const s = this.#sources.get(writeKey);
    if (!s) throw new UnknownWriteKeyError(String(writeKey), [...this.#sources.keys()]);
    return s;
  }

  /** The write key given, or the first source's. */
  #writeKey(given: string | undefined): string {
    if (given !== undefined) return given;
    const first = this.#sources.keys().next();
    if (first.done) throw new UnknownWriteKeyError('', []);
    return first.value;
  }
}

function view(s: ResolvedSource): SourceView {
  return Object.freeze({
    writeKey: s.writeKey,
    ...(s.name !== undefined ? { name: s.name } : {}),
    ...(s.connected
      ? {
          webhooks: Object.freeze({
            enabled: s.enabled,
            endpoints: Object.freeze(s.endpoints.map((e) => Object.freeze({ url: e.url, headerNames: Object.freeze(Object.keys(e.headers)) }))),
            signed: s.sharedSecret !== undefined,
          }),
        }
      : {}),
    blockedEvents: Object.freeze([...s.blockedEvents]),
  });
}

/**
 * Creates a sender emulator. Throws a `SettingsError` naming any bad setting (more than 5
 * endpoints or headers, a URL without scheme, a header with CR/LF or replacing `Content-Type` or
 * `X-Signature`, an unknown option).
 *
 * @example
 * const clock = new ManualClock();
 * const emulator = createEmulator({
 *   sources: [{ writeKey: 'wk', webhooks: { enabled: true, endpoints: [{ url: 'http://127.0.0.1:3000/hook' }], sharedSecret: 's3cret' } }],
 *   clock,
 * });
 */
export function createEmulator(options: EmulatorOptions = {}): Emulator {
  return new EmulatorImpl(options);
}
