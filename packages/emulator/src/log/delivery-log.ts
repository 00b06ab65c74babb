import { LogFullError } from '../errors.js';
import { recordSeq, type DeliveryRecord, type LoggedDelivery } from './delivery-record.js';

/**
 * How many records the delivery log holds and what it ever held, per state: `total` and the states count
 * every record since the emulator started, `evicted` ones included (see the `maxRecords` option).
 *
 * @example
 * const { total, failed, evicted } = emulator.deliveryCounts();
 */
export interface DeliveryCounts {
  /** Every record ever made. */
  total: number;
  pending: number;
  delivered: number;
  failed: number;
  filtered: number;
  /** Finished records dropped from `deliveries` to keep it within `maxRecords` and `maxLogBytes` (oldest first). */
  evicted: number;
}

/**
 * What the delivery log shows to readers (the intake's inspection routes, the CLI).
 *
 * @example
 * const view: DeliveryLogView = emulator;
 * view.deliveries.filter((r) => r.state === 'failed');
 */
export interface DeliveryLogView {
  /** Every record, oldest first, except finished ones evicted past `maxRecords` or `maxLogBytes`. */
  readonly deliveries: readonly DeliveryRecord[];
  /** Records per state since the start, evicted ones included. */
  deliveryCounts(): DeliveryCounts;
}

/**
 * The delivery log: records in id order, bounded by a count (`maxRecords`) and by the bytes of their
 * bodies (`maxLogBytes`). Finished records are evicted oldest first to stay within both; pending
 * ones never are: when they alone fill the byte budget, `admit` refuses the new record
 * (`LogFullError`). Counts survive eviction.
 *
 * @example
 * const log = new DeliveryLog(1000, 64 * 2 ** 20);
 * log.admit(record.bodyLength);
 * log.push(record);
 * log.find('dlv_1') === record; // true
 */
export class DeliveryLog implements DeliveryLogView {
  readonly #maxRecords: number;
  readonly #maxBytes: number;
  readonly #records: LoggedDelivery[] = [];
  /** The body bytes each record was admitted with, beside it. */
  readonly #weights: number[] = [];
  #bytes = 0;
  /** Past this many records, finished ones are evicted at the next write (reads evict down to `maxRecords`). */
  #compactAt: number;
  readonly #evicted = { delivered: 0, failed: 0, filtered: 0 };
  #seq = 0;

  constructor(maxRecords: number, maxBytes: number) {
    this.#maxRecords = maxRecords;
    this.#maxBytes = maxBytes;
    this.#compactAt = this.#nextCompactAt();
  }

  /** The number the next record gets (its id is `recordId(seq)`). */
  nextSeq(): number {
    return ++this.#seq;
  }

  /**
   * Makes room for a body of `bytes`: evicts finished records (oldest first) when the budget would be
   * passed; throws `LogFullError` when pending records alone leave no room (nothing is evicted then
   * that was not finished).
   */
  admit(bytes: number): void {
    if (this.#bytes + bytes <= this.#maxBytes) return;
    // Evict down to 7/8 of the budget: one scan makes room for many more records.
    this.#evict(Math.min(this.#maxBytes - bytes, Math.floor(this.#maxBytes * 0.875)));
    if (this.#bytes + bytes > this.#maxBytes) throw new LogFullError(this.#pendingBytes(), this.#maxBytes);
  }

  /** Appends a record admitted with `bytes` (evicting finished ones when the slack above `maxRecords` is used up). */
  push(record: LoggedDelivery, bytes: number): void {
    this.#records.push(record);
    this.#weights.push(bytes);
    this.#bytes += bytes;
    if (this.#records.length > this.#compactAt) this.#evict(Infinity);
  }

  /** The records kept, oldest first, as the engine sees them (pending ones are never evicted). */
  get records(): readonly LoggedDelivery[] {
    return this.#records;
  }

  get deliveries(): readonly DeliveryRecord[] {
    if (this.#records.length > this.#maxRecords) this.#evict(Infinity);
    return this.#records;
  }

  deliveryCounts(): DeliveryCounts {
    const e = this.#evicted;
    const evicted = e.delivered + e.failed + e.filtered;
    const counts: DeliveryCounts = { total: 0, pending: 0, ...e, evicted };
    for (const r of this.#records) counts[r.state]++;
    counts.total = evicted + this.#records.length;
    return counts;
  }

  /** Whether `id` names a record that was made and then evicted. */
  wasEvicted(id: string): boolean {
    const seq = recordSeq(id);
    return seq !== undefined && seq <= this.#seq && this.find(id) === undefined;
  }

  /** A record by id: records are in `seq` order, so a binary search. */
  find(id: string): LoggedDelivery | undefined {
    const seq = recordSeq(id);
    if (seq === undefined) return undefined;
    if (this.#records.length > this.#maxRecords) this.#evict(Infinity);
    const records = this.#records;
    let lo = 0;
    let hi = records.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const r = records[mid] as LoggedDelivery;
      if (r.seq === seq) return r;
      if (r.seq < seq) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }

  #pendingBytes(): number {
    let bytes = 0;
    for (let i = 0; i < this.#records.length; i++)
      if ((this.#records[i] as LoggedDelivery).state === 'pending') bytes += this.#weights[i] as number;
    return bytes;
  }

  /** The write length past which finished records are evicted: a slack above `maxRecords` keeps eviction amortized O(1). */
  #nextCompactAt(): number {
    const max = this.#maxRecords;
    return Math.max(this.#records.length, max) + Math.max(64, Math.floor(max / 8));
  }

  /**
   * Drops the oldest finished records until at most `maxRecords` remain and their bodies weigh at
   * most `bytesTarget` (or only pending ones are left), in place: `deliveries` is the same array.
   */
  #evict(bytesTarget: number): void {
    const records = this.#records;
    const weights = this.#weights;
    let excess = records.length - this.#maxRecords;
    let w = 0;
    for (let i = 0; i < records.length; i++) {
      const r = records[i] as LoggedDelivery;
      const weight = weights[i] as number;
      if ((excess > 0 || this.#bytes > bytesTarget) && r.state !== 'pending') {
        this.#evicted[r.state]++;
        this.#bytes -= weight;
        excess--;
        continue;
      }
      records[w] = r;
      weights[w] = weight;
      w++;
    }
    records.length = w;
    weights.length = w;
    this.#compactAt = this.#nextCompactAt();
  }
}
