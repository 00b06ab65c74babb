import type { Call, CallInput, CallType } from '@hookgate/core/calls';
import { ValidationError } from '@hookgate/core';
import type { Clock } from './clock.js';
import type { Emulator } from './emulator-api.js';
import { SettingsError } from './errors.js';
import type { CallOptions, IngestOptions } from './ingest.js';
import type { IntakeListenOptions, IntakeServer } from './intake/intake-server.js';
import { listenIntake } from './intake/listen-intake.js';
import type { DeliveryCounts } from './log/delivery-log.js';
import type { CloseReport, DeliveryRecord } from './log/delivery-record.js';
import type { EmulatorEventName, EmulatorEvents } from './log/events.js';
import { resolveOptions, type EmulatorOptions } from './options.js';
import { reportAttempts } from './telemetry.js';
import { Pipeline } from './pipeline.js';
import { replayRecord } from './replay.js';
import { viewSource, type SourcePatch, type SourceView } from './routing/source-registry.js';
import type { SourceSettings } from './routing/source-settings.js';
import { SyncRecords, type DeleteUserOptions } from './syncs/sync-records.js';
import { IntakeHandoff } from './intake-handoff.js';

export type { Emulator } from './emulator-api.js';

function toMs(value: Date | number | string, name: string): number {
  const ms = value instanceof Date ? value.getTime() : typeof value === 'string' ? Date.parse(value) : value;
  if (typeof ms !== 'number' || !Number.isFinite(ms))
    throw new TypeError(`${name} must be a Date, epoch ms or ISO string (got ${String(value)})`);
  return ms;
}

/**
 * The façade: each method hands over to the part that owns it (pipeline, sources, syncs, replay,
 * delivery log, delivery engine, intake).
 */
class EmulatorImpl implements Emulator {
  readonly clock: Clock;
  readonly intakeSink: IntakeHandoff;
  readonly #p: Pipeline;
  readonly #syncs: SyncRecords;

  constructor(options: EmulatorOptions) {
    this.#p = new Pipeline(resolveOptions(options));
    this.clock = this.#p.options.clock;
    this.#syncs = new SyncRecords(this.#p);
    const sources = options.sources ?? [];
    if (!Array.isArray(sources))
      throw new SettingsError('sources', 'must be a list of { writeKey, name?, webhooks?, schema? }');
    sources.forEach((s, i) => this.#p.sources.add(s, `sources[${i}]`));
    this.intakeSink = new IntakeHandoff(this.#p);
    reportAttempts(this.#p.events, this.#p.options.telemetry);
  }

  get sources(): readonly SourceView[] {
    return this.#p.sources.views();
  }
  get deliveries(): readonly DeliveryRecord[] {
    return this.#p.log.deliveries;
  }
  deliveryCounts(): DeliveryCounts {
    return this.#p.log.deliveryCounts();
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
    return this.intakeSink.ingest({ ...call, type } as Call, {
      method: type,
      writeKey: this.#p.sources.writeKeyOrFirst(options?.writeKey),
      receivedMs: this.clock.now(),
    });
  }

  ingest(call: Call, options: IngestOptions): DeliveryRecord {
    if (typeof options !== 'object' || options === null || typeof options.writeKey !== 'string')
      throw new TypeError('ingest(call, { writeKey }): writeKey is required');
    const { receivedAt } = options;
    return this.intakeSink.ingest(call, {
      method: 'ingest',
      writeKey: options.writeKey,
      receivedMs: receivedAt === undefined ? this.clock.now() : toMs(receivedAt, 'receivedAt'),
    });
  }

  hasSource(writeKey: string): boolean {
    return this.#p.sources.has(writeKey);
  }
  addSource(source: SourceSettings): SourceView {
    this.#p.assertOpen('addSource');
    return viewSource(this.#p.sources.add(source, 'source').resolved);
  }
  updateSource(writeKey: string, patch: SourcePatch): SourceView {
    return viewSource(this.#p.sources.update(writeKey, patch).resolved);
  }
  usage(writeKey: string): number {
    return this.#p.sources.get(writeKey).usage;
  }

  deleteUser(userId: string, options?: DeleteUserOptions): DeliveryRecord[] {
    return this.#syncs.deleteUser(userId, options);
  }
  syncAudience(name: string, memberUserIds: Iterable<string>, options?: CallOptions): DeliveryRecord[] {
    return this.#syncs.audience(name, memberUserIds, options?.writeKey);
  }
  syncComputedTrait(
    name: string,
    valuesByUserId: Record<string, unknown> | Map<string, unknown>,
    options?: CallOptions,
  ): DeliveryRecord[] {
    return this.#syncs.computedTrait(name, valuesByUserId, options?.writeKey);
  }

  get(id: string): DeliveryRecord | undefined {
    return this.#p.log.find(id);
  }
  replay(id: string): DeliveryRecord {
    return replayRecord(this.#p, id);
  }

  retryNow(id: string): boolean {
    this.#p.assertOpen('retryNow');
    return typeof id === 'string' && this.#p.engine.retryNow(id);
  }

  on<K extends EmulatorEventName>(event: K, listener: EmulatorEvents[K]): this {
    this.#p.events.on(event, listener);
    return this;
  }
  off<K extends EmulatorEventName>(event: K, listener: EmulatorEvents[K]): this {
    this.#p.events.off(event, listener);
    return this;
  }

  drain(): Promise<void> {
    // Open Webhooks (Actions) batches are sent first: drain() waits for every accepted event.
    if (!this.#p.closed) this.#p.actions.flushAll();
    return this.#p.engine.drain();
  }
  listen(options: IntakeListenOptions = {}): Promise<IntakeServer> {
    // The inspector shows time left in this emulator's retry window.
    const inspector =
      options.inspector === false ? false : { retryWindowMs: this.#p.options.retry.windowMs, ...options.inspector };
    return listenIntake(this, { ...options, inspector });
  }
  async close(): Promise<CloseReport> {
    if (this.#p.closed) return { pending: [] };
    this.#p.closed = true;
    const pending: DeliveryRecord[] = this.#p.engine.close(this.#p.log.records);
    // Events still in open Webhooks (Actions) batches become records failed for the same reason (nothing is lost).
    pending.push(...this.#p.actions.flushAll());
    return { pending };
  }
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
