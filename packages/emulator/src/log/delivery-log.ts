import type { DeliveryRecord, LoggedDelivery } from './delivery-record.js';

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
  /** Finished records dropped from `deliveries` to keep it within `maxRecords` (oldest first). */
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
  /** Every record, oldest first, except finished ones evicted past `maxRecords`. */
  readonly deliveries: readonly DeliveryRecord[];
  /** Records per state since the start, evicted ones included. */
  deliveryCounts(): DeliveryCounts;
}

/** The numeric part of a record id (`dlv_42` → 42). */
const seqOf = (id: string) => Number(id.slice(4));

/**
 * The delivery log: records in id order, finished ones evicted oldest first past `maxRecords`
 * (pending ones never), with counts that survive eviction and a lookup by id.
 *
 * @example
 * const log = new DeliveryLog(1000);
 * log.push(record);
 * log.find('dlv_1') === record; // true
 */
export class DeliveryLog implements DeliveryLogView {
  readonly #maxRecords: number;
  readonly #records: LoggedDelivery[] = [];
  /** Past this many records, finished ones are evicted at the next write (reads evict down to `maxRecords`). */
  #compactAt: number;
  readonly #evicted = { delivered: 0, failed: 0, filtered: 0 };
  #seq = 0;

  constructor(maxRecords: number) {
    this.#maxRecords = maxRecords;
    this.#compactAt = this.#nextCompactAt();
  }

  /** The number the next record gets (its id is `dlv_<seq>`). */
  nextSeq(): number {
    return ++this.#seq;
  }

  /** Appends a record (evicting finished ones when the slack above `maxRecords` is used up). */
  push(record: LoggedDelivery): void {
    if (this.#records.push(record) > this.#compactAt) this.#evict();
  }

  /** The records kept, oldest first, as the engine sees them (pending ones are never evicted). */
  get records(): readonly LoggedDelivery[] {
    return this.#records;
  }

  get deliveries(): readonly DeliveryRecord[] {
    if (this.#records.length > this.#maxRecords) this.#evict();
    return this.#records;
  }

  deliveryCounts(): DeliveryCounts {
    const e = this.#evicted;
    const counts: DeliveryCounts = {
      total: 0,
      pending: 0,
      delivered: e.delivered,
      failed: e.failed,
      filtered: e.filtered,
      evicted: 0,
    };
    counts.evicted = e.delivered + e.failed + e.filtered;
    for (const r of this.#records) counts[r.state]++;
    counts.total = counts.evicted + this.#records.length;
    return counts;
  }

  /** Whether `id` names a record that was made and then evicted. */
  wasEvicted(id: string): boolean {
    const seq = typeof id === 'string' ? seqOf(id) : NaN;
    return seq >= 1 && seq <= this.#seq && id === `dlv_${seq}` && this.find(id) === undefined;
  }

  /** A record by id: records are in id order, so a binary search (no index to keep). */
  find(id: string): LoggedDelivery | undefined {
    if (typeof id !== 'string' || !id.startsWith('dlv_')) return undefined;
    if (this.#records.length > this.#maxRecords) this.#evict();
    const seq = seqOf(id);
    const records = this.#records;
    let lo = 0;
    let hi = records.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const r = records[mid] as LoggedDelivery;
      const s = r.seq;
      if (s === seq) return r.id === id ? r : undefined;
      if (s < seq) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }

  /** The write length past which finished records are evicted: a slack above `maxRecords` keeps eviction amortized O(1). */
  #nextCompactAt(): number {
    const max = this.#maxRecords;
    return Math.max(this.#records.length, max) + Math.max(64, Math.floor(max / 8));
  }

  /**
   * Drops the oldest finished records until at most `maxRecords` remain (or only pending ones are
   * left to drop), in place: `deliveries` is the same array before and after.
   */
  #evict(): void {
    const records = this.#records;
    let excess = records.length - this.#maxRecords;
    let w = 0;
    for (let i = 0; i < records.length; i++) {
      const r = records[i] as LoggedDelivery;
      if (excess > 0 && r.state !== 'pending') {
        this.#evicted[r.state]++;
        excess--;
        continue;
      }
      if (w !== i) records[w] = r;
      w++;
    }
    records.length = w;
    this.#compactAt = this.#nextCompactAt();
  }
}
