import type { Emulator } from '../emulator.js';

/**
 * What the intake needs of the delivery engine: the source lookup, `ingest` (which throws for a bad
 * call, an unknown write key, or after `close()`), the clock (receipt times), the delivery log and its
 * counts. An `Emulator` is one (and also offers an internal entry point that skips re-checking calls
 * the intake already validated).
 *
 * @example
 * const engine: IntakeEngine = createEmulator({ sources: [{ writeKey: 'wk_1' }] });
 */
export type IntakeEngine = Pick<Emulator, 'hasSource' | 'ingest' | 'deliveries' | 'deliveryCounts' | 'clock'>;
