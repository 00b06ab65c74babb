import type { Attempt, CancelledRetry, DeliveryRecord } from './delivery-record.js';

/**
 * The events an emulator emits, with their listener signatures.
 *
 * @example
 * emulator.on('failed', (record) => console.error(record.id, record.reason));
 */
export interface EmulatorEvents {
  /** A record was created (a call received, a deletion, a sync, a replay), before any attempt. */
  received: (record: DeliveryRecord) => void;
  /** An attempt ended (answer, error or timeout). */
  attempt: (attempt: Attempt, record: DeliveryRecord) => void;
  /**
   * A retry will not start (one queued, or the next round's of an endpoint whose attempt ended `retry`):
   * another endpoint accepted the message (`cancelled.reason` says which).
   */
  cancelled: (cancelled: CancelledRetry, record: DeliveryRecord) => void;
  /** A record became delivered: an endpoint answered 2xx. Emitted once per record. */
  delivered: (record: DeliveryRecord) => void;
  /** A record became failed (gave up, rejected, or closed before delivery). Emitted once per record. */
  failed: (record: DeliveryRecord) => void;
  /** A record was filtered (never sent); `record.reason` says why. */
  filtered: (record: DeliveryRecord) => void;
}

/**
 * The name of an emulator event.
 *
 * @example
 * const names: EmulatorEventName[] = ['attempt', 'delivered', 'failed'];
 */
export type EmulatorEventName = keyof EmulatorEvents;

/**
 * A small typed event emitter. A listener that throws does not stop the others nor the delivery;
 * its error is written to stderr naming the event.
 *
 * @example
 * const events = new EventHub();
 * events.on('delivered', (r) => console.log(r.id));
 */
export class EventHub {
  readonly #listeners: { [K in EmulatorEventName]: Array<EmulatorEvents[K]> } = {
    received: [],
    attempt: [],
    cancelled: [],
    delivered: [],
    failed: [],
    filtered: [],
  };

  /** Adds a listener. */
  on<K extends EmulatorEventName>(event: K, fn: EmulatorEvents[K]): void {
    const list = this.#listeners[event];
    if (!list)
      throw new TypeError(
        `Unknown event ${JSON.stringify(event)}: use one of ${Object.keys(this.#listeners).join(', ')}`,
      );
    if (typeof fn !== 'function') throw new TypeError(`on(${JSON.stringify(event)}, fn): fn must be a function`);
    list.push(fn);
  }

  /** Removes a listener added with `on`. */
  off<K extends EmulatorEventName>(event: K, fn: EmulatorEvents[K]): void {
    const list = this.#listeners[event];
    if (!list) return;
    const i = list.indexOf(fn);
    if (i >= 0) list.splice(i, 1);
  }

  /** Whether an event has listeners (lets a hot path skip building the call to `emit`). */
  has(event: EmulatorEventName): boolean {
    return this.#listeners[event].length > 0;
  }

  /** Calls every listener of an event. */
  emit<K extends EmulatorEventName>(event: K, ...args: Parameters<EmulatorEvents[K]>): void {
    const list = this.#listeners[event];
    if (list.length === 0) return;
    for (const fn of [...list]) {
      try {
        (fn as (...a: unknown[]) => void)(...args);
      } catch (e) {
        process.stderr.write(`hookgate:emulator a '${event}' listener threw: ${(e as Error)?.stack ?? String(e)}\n`);
      }
    }
  }
}
