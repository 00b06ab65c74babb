import type { InboundRecord } from './inbound-record.js';

/**
 * Default byte budget of `listen`'s log (`maxLogBytes`, `--max-log-bytes`): 100 MiB of records,
 * measured as their JSON views. At most 64 KiB of each body is kept, so this holds well over a
 * thousand of the largest requests and tens of thousands of typical ones.
 *
 * @example
 * await startListener({ secret: 's3cret', maxLogBytes: DEFAULT_LISTEN_LOG_BYTES / 4 });
 */
export const DEFAULT_LISTEN_LOG_BYTES = 100 * 1024 * 1024;

/**
 * The bounded log of requests that reached `listen`: newest kept, oldest dropped first past `max`
 * records or `maxBytes` bytes (the newest record is always kept; every drop is counted), with
 * subscribers for live views. A record's size is the length of its JSON view, and the record kept is
 * a fresh copy parsed from that JSON: nothing in it can hold on to the request's whole body (an
 * excerpt sliced from a 1 MiB string keeps the whole string alive in V8), so the budget is what the
 * log really holds.
 *
 * @example
 * const log = new InboundLog(10_000, DEFAULT_LISTEN_LOG_BYTES);
 * const stop = log.subscribe((record) => console.log(record.id));
 */
export class InboundLog {
  readonly #records: InboundRecord[] = [];
  readonly #sizes: number[] = [];
  readonly #byId = new Map<string, InboundRecord>();
  readonly #listeners = new Set<(record: InboundRecord) => void>();
  #dropped = 0;
  #bytes = 0;

  constructor(
    readonly max: number,
    readonly maxBytes: number = DEFAULT_LISTEN_LOG_BYTES,
  ) {}

  /** Keeps a copy of the record (see the class comment), drops the oldest past the bounds, and tells every subscriber. */
  add(record: InboundRecord): InboundRecord {
    const json = JSON.stringify(record);
    const kept = JSON.parse(json) as InboundRecord;
    this.#records.push(kept);
    this.#sizes.push(json.length);
    this.#bytes += json.length;
    this.#byId.set(kept.id, kept);
    while (this.#records.length > 1 && (this.#records.length > this.max || this.#bytes > this.maxBytes)) {
      const gone = this.#records.shift() as InboundRecord;
      this.#bytes -= this.#sizes.shift() as number;
      this.#byId.delete(gone.id);
      this.#dropped++;
    }
    for (const listener of this.#listeners) listener(kept);
    return kept;
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

  /** How many records were dropped because the log was full (by count or by bytes). */
  get dropped(): number {
    return this.#dropped;
  }

  /** The size of the records kept: the sum of the lengths of their JSON views. */
  get bytes(): number {
    return this.#bytes;
  }

  /** One record by id (indexed: the live view asks for every changed row). */
  get(id: string): InboundRecord | undefined {
    return this.#byId.get(id);
  }
}
