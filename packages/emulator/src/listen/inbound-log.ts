import type { InboundRecord } from './inbound-record.js';

/**
 * The bounded log of requests that reached `listen`: newest kept, oldest dropped past `max` (the drop
 * is counted), with subscribers for live views.
 *
 * @example
 * const log = new InboundLog(10_000);
 * const stop = log.subscribe((record) => console.log(record.id));
 */
export class InboundLog {
  readonly #records: InboundRecord[] = [];
  readonly #byId = new Map<string, InboundRecord>();
  readonly #listeners = new Set<(record: InboundRecord) => void>();
  #dropped = 0;

  constructor(readonly max: number) {}

  /** Keeps a record and tells every subscriber. */
  add(record: InboundRecord): void {
    this.#records.push(record);
    this.#byId.set(record.id, record);
    if (this.#records.length > this.max) {
      const gone = this.#records.shift();
      if (gone) this.#byId.delete(gone.id);
      this.#dropped++;
    }
    for (const listener of this.#listeners) listener(record);
  }

  /** Calls `listener` for every record added from now on; returns the unsubscribe function. */
  subscribe(listener: (record: InboundRecord) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The records kept, oldest first. */
  get records(): readonly InboundRecord[] {
    return this.#records;
  }

  /** How many records were dropped because the log was full. */
  get dropped(): number {
    return this.#dropped;
  }

  /** One record by id (indexed: the live view asks for every changed row). */
  get(id: string): InboundRecord | undefined {
    return this.#byId.get(id);
  }
}
