import type { Ingest } from '../ingest.js';
import type { DeliveryLogView } from '../log/delivery-log.js';

/**
 * What the intake needs of the emulator: the narrow `Ingest` entry point (source lookup, `ingest`,
 * which throws for a bad call, an unknown write key, or after `close()`; the clock for receipt times)
 * and the delivery log's read-only view for its inspection routes. An `Emulator` is one (and also
 * offers an internal entry point that skips re-checking calls the intake already validated).
 *
 * @example
 * const engine: IntakeEngine = createEmulator({ sources: [{ writeKey: 'wk_1' }] });
 */
export type IntakeEngine = Ingest & DeliveryLogView;
