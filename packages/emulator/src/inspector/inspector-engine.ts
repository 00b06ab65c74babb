import type { Ingest } from '../ingest.js';
import type { DeliveryLogView } from '../log/delivery-log.js';
import type { DeliveryRecord } from '../log/delivery-record.js';
import type { EmulatorEventName, EmulatorEvents } from '../log/events.js';
import type { SourceView } from '../routing/source-registry.js';
import type { DeleteUserOptions } from '../syncs/sync-records.js';

/**
 * What the inspector needs of an emulator: the delivery log and its events, the clock, the sources
 * (endpoint lists), and the actions it offers (replay, retry now, send a test event). An `Emulator`
 * is one; this is its part the inspector uses, named here so that the inspector depends on nothing above it.
 *
 * @example
 * const engine: InspectorEngine = createEmulator({ sources: [{ writeKey: 'wk' }] });
 */
export interface InspectorEngine extends Ingest, Pick<DeliveryLogView, 'deliveries'> {
  readonly sources: readonly SourceView[];
  get(id: string): DeliveryRecord | undefined;
  replay(id: string): DeliveryRecord;
  retryNow(id: string): boolean;
  deleteUser(userId: string, options?: DeleteUserOptions): DeliveryRecord[];
  on<K extends EmulatorEventName>(event: K, listener: EmulatorEvents[K]): unknown;
  off<K extends EmulatorEventName>(event: K, listener: EmulatorEvents[K]): unknown;
}

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
