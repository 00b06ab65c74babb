import type { Ingest } from '../ingest.js';
import type { DeliveryLogView } from '../log/delivery-log.js';
import type { IntakeSink } from './intake-sink.js';

/**
 * What the intake needs of the emulator: whether a write key names a source, the clock for receipt
 * times, the sink it hands every call to (`intakeSink`: accepted calls checked as `ingest` checks
 * them, refused ones recorded), and the delivery log's read-only view for its inspection routes.
 * An `Emulator` is one.
 *
 * @example
 * const engine: IntakeEngine = createEmulator({ sources: [{ writeKey: 'wk_1' }] });
 */
export interface IntakeEngine extends Pick<Ingest, 'clock' | 'hasSource'>, DeliveryLogView {
  /** Where the intake hands each call it read. */
  readonly intakeSink: IntakeSink;
}
