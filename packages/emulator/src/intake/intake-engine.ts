import type { Emulator } from '../emulator.js';

/**
 * What the intake needs of the delivery engine: the source lookup, `ingest` (which throws for a bad
 * call, an unknown write key, or after `close()`), the clock (receipt times) and the delivery log.
 * An `Emulator` is one.
 *
 * @example
 * const engine: IntakeEngine = createEmulator({ sources: [{ writeKey: 'wk_1' }] });
 */
export type IntakeEngine = Pick<Emulator, 'hasSource' | 'ingest' | 'deliveries' | 'clock'>;
