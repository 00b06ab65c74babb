import type { Emulator } from '../emulator-api.js';

/**
 * What the inspector needs of an emulator: the delivery log and its events, the clock, the sources
 * (endpoint lists), and the actions it offers (replay, retry now, send a test event).
 *
 * @example
 * const engine: InspectorEngine = createEmulator({ sources: [{ writeKey: 'wk' }] });
 */
export type InspectorEngine = Pick<
  Emulator,
  | 'deliveries'
  | 'get'
  | 'replay'
  | 'retryNow'
  | 'on'
  | 'off'
  | 'clock'
  | 'sources'
  | 'ingest'
  | 'deleteUser'
  | 'hasSource'
>;

/** Whether an intake engine can back the inspector (an `Emulator` can; a bare `IntakeEngine` cannot). */
export function isInspectorEngine(engine: object): engine is InspectorEngine {
  const e = engine as Partial<Record<keyof InspectorEngine, unknown>>;
  return (
    typeof e.on === 'function' &&
    typeof e.off === 'function' &&
    typeof e.get === 'function' &&
    typeof e.replay === 'function' &&
    typeof e.retryNow === 'function'
  );
}
