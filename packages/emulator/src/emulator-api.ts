import type { Call, CallInput } from '@hookgate/core/calls';
import type { Clock } from './clock.js';
import type { CallOptions, Ingest, IngestOptions } from './ingest.js';
import type { IntakeEngine } from './intake/intake-engine.js';
import type { IntakeListenOptions, IntakeServer } from './intake/intake-options.js';
import type { IntakeSink } from './intake/intake-sink.js';
import type { DeliveryCounts, DeliveryLogView } from './log/delivery-log.js';
import type { CloseReport, DeliveryRecord } from './log/delivery-record.js';
import type { EmulatorEventName, EmulatorEvents } from './log/events.js';
import type { SourcePatch, SourceView } from './routing/source-registry.js';
import type { SourceSettings } from './routing/source-settings.js';
import type { DeleteUserOptions } from './syncs/sync-records.js';

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
export interface Emulator extends Ingest, IntakeEngine, DeliveryLogView {
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
   * Receives any call for a source (what `track` & co. use; the intake's `intakeSink` checks its calls
   * the same way). Throws a `ValidationError` naming missing fields, an `UnknownWriteKeyError` for an
   * unknown key.
   *
   * @example
   * emulator.ingest({ type: 'track', userId: 'u1', event: 'E' }, { writeKey: 'wk' });
   */
  ingest(call: Call, options: IngestOptions): DeliveryRecord;
  /**
   * Where the intake (`listen()`, `listenIntake`, `createIntakeListener`) hands each call it read:
   * checked as `ingest` checks, a `(writeKey, messageId)` seen within `dedupe.windowMs` recorded as a
   * duplicate, refused calls recorded `filtered` with the intake's reason. A front end of your own may use it too.
   *
   * @example
   * emulator.intakeSink.accept({ type: 'track', userId: 'u1', event: 'E' }, { writeKey: 'wk', receivedMs: emulator.clock.now() });
   */
  readonly intakeSink: IntakeSink;
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
  /** The source's API usage: calls received, filtered ones included. @example emulator.usage('wk') */
  usage(writeKey: string): number;

  /**
   * Sends a delete notification to every affected source with webhooks enabled.
   *
   * @example
   * const records = emulator.deleteUser('u1'); // one per source that saw u1
   */
  deleteUser(userId: string, options?: DeleteUserOptions): DeliveryRecord[];
  /**
   * An audience sync: identify calls with the snake_case audience name as a trait, `true`
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
