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
import { LoggedDelivery, type CloseReport, type DeliveryRecord } from './delivery-record.js';
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
  /** Every delivery record, oldest first. */
  readonly deliveries: readonly DeliveryRecord[];

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

  /** A record by id. @example emulator.get('dlv_1')?.state */
  get(id: string): DeliveryRecord | undefined;
  /**
   * Delivers a recorded message again, as a new record with `replayOf` (same body, signed with the
   * source's current secret, to its current endpoints; the call's integrations are not re-checked).
   *
   * @example
   * const again = emulator.replay(record.id);
   */
  replay(id: string): DeliveryRecord;
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
}

function toMs(value: Date | number | string, name: string): number {
  const ms = value instanceof Date ? value.getTime() : typeof value === 'string' ? Date.parse(value) : value;
  if (typeof ms !== 'number' || !Number.isFinite(ms)) throw new TypeError(`${name} must be a Date, epoch ms or ISO string (got ${String(value)})`);
  return ms;
}

class EmulatorImpl implements Emulator {
  readonly clock: Clock;
  readonly #options: ResolvedOptions;
  readonly #events = new EventHub();
  readonly #log: DebugLog | undefined;
  readonly #engine: DeliveryEngine;
  readonly #sources = new Map<string, SourceState>();
  readonly #records: LoggedDelivery[] = [];
  readonly #byId = new Map<string, LoggedDelivery>();
  readonly #syncs = new TraitSyncs();
  readonly #bodies = new BodyArena();
  #seq = 0;
  #closed = false;

  constructor(options: EmulatorOptions) {
    this.#options = resolveOptions(options);
    this.clock = this.#options.clock;
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
    return this.#records;
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
    const receivedMs = receivedAt === undefined ? this.clock.now() : toMs(receivedAt, 'receivedAt');
    source.usage++;
    if (typeof call.userId === 'string' && call.userId.length > 0) source.seenUsers.add(call.userId);
    const built = callToMessage(call, receivedMs, this.#options);
    const routed = routeCall(call, source.resolved);
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
    const body = r.body ?? this.#bodies.store(r.message ? serializeMessage(r.message, this.#options.serialization) : '');
    const secret = r.source.resolved.sharedSecret;
    const record = new LoggedDelivery({
      id: `dlv_${++this.#seq}`,
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
    });
    this.#records.push(record);
    this.#byId.set(record.id, record);
    this.#events.emit('received', record);
    if (record.state === 'filtered') {
      this.#log?.(`${record.receivedAt} ${record.id} ${record.type} filtered: ${record.reason}`);
      this.#events.emit('filtered', record);
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
    return this.#byId.get(id);
  }

  replay(id: string): DeliveryRecord {
    if (this.#closed) throw new EmulatorClosedError('replay');
    const original = this.#byId.get(id);
    if (!original) throw new ReplayError(id, 'no delivery record has this id');
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
    return listenIntake(this, options);
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
