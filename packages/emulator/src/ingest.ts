import type { Call } from '@hookgate/core/calls';
import type { Clock } from './clock.js';
import type { DeliveryRecord } from './log/delivery-record.js';

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
 * The narrow entry point a front end (the intake) needs: is there such a source, take this call,
 * and the clock that stamps receipt times. `ingest` throws a `ValidationError` for a bad call, an
 * `UnknownWriteKeyError` for an unknown key, an `EmulatorClosedError` after `close()`.
 *
 * @example
 * const ingest: Ingest = createEmulator({ sources: [{ writeKey: 'wk' }] });
 * if (ingest.hasSource('wk')) ingest.ingest({ type: 'track', userId: 'u1', event: 'E' }, { writeKey: 'wk' });
 */
export interface Ingest {
  /** The clock receipt times are read from. */
  readonly clock: Clock;
  /** Whether a source has this write key. */
  hasSource(writeKey: string): boolean;
  /** Receives any call for a source. */
  ingest(call: Call, options: IngestOptions): DeliveryRecord;
}
