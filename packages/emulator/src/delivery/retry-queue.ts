import type { Clock, ClockTimer } from '../clock.js';

/**
 * Items waiting for their retry, in due order (a binary min-heap), behind ONE clock timer set for the
 * earliest: 100,000 messages waiting cost one array slot each, not a timer object each. When the timer
 * fires, every item due by then is handed to `onDue` (earliest first), and the timer is set for the next.
 *
 * @example
 * const queue = new RetryQueue(clock, (job: Job) => job.dueMs, (job) => startRound(job));
 * queue.add(job); // job.dueMs already set
 */
export class RetryQueue<T> {
  readonly #clock: Clock;
  readonly #dueOf: (item: T) => number;
  readonly #onDue: (item: T) => void;
  #heap: T[] = [];
  #timer: ClockTimer | undefined = undefined;
  /** When the timer is set for (to re-arm only for an earlier item). */
  #timerAt = Infinity;

  constructor(clock: Clock, dueOf: (item: T) => number, onDue: (item: T) => void) {
    this.#clock = clock;
    this.#dueOf = dueOf;
    this.#onDue = onDue;
  }

  /** Items waiting. */
  get size(): number {
    return this.#heap.length;
  }

  /** Adds an item (its due time must not change while it waits). */
  add(item: T): void {
    const heap = this.#heap;
    const due = this.#dueOf(item);
    let i = heap.push(item) - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const p = heap[parent] as T;
      if (this.#dueOf(p) <= due) break;
      heap[i] = p;
      i = parent;
    }
    heap[i] = item;
    if (due < this.#timerAt) this.#arm(due);
  }

  /** Removes every item and the timer; returns the items. */
  clear(): T[] {
    if (this.#timer !== undefined) this.#clock.clearTimer(this.#timer);
    this.#timer = undefined;
    this.#timerAt = Infinity;
    const items = this.#heap;
    this.#heap = [];
    return items;
  }

  /**
   * Takes out the first waiting item that `match` accepts (for a "retry now"), or `undefined`. Costs
   * O(n log n): the rest are re-sorted, which keeps them a valid heap. Meant for rare, user-driven calls.
   */
  remove(match: (item: T) => boolean): T | undefined {
    const index = this.#heap.findIndex(match);
    if (index === -1) return undefined;
    const [item] = this.#heap.splice(index, 1);
    this.#heap.sort((a, b) => this.#dueOf(a) - this.#dueOf(b));
    if (this.#timer !== undefined) this.#clock.clearTimer(this.#timer);
    this.#timer = undefined;
    this.#timerAt = Infinity;
    if (this.#heap.length > 0) this.#arm(this.#dueOf(this.#heap[0] as T));
    return item;
  }

  #arm(due: number): void {
    if (this.#timer !== undefined) this.#clock.clearTimer(this.#timer);
    this.#timerAt = due;
    this.#timer = this.#clock.setTimer(this.#fire, Math.max(0, due - this.#clock.now()));
  }

  readonly #fire = (): void => {
    this.#timer = undefined;
    this.#timerAt = Infinity;
    const now = this.#clock.now();
    while (this.#heap.length > 0 && this.#dueOf(this.#heap[0] as T) <= now) this.#onDue(this.#pop());
    if (this.#heap.length > 0 && this.#timer === undefined) this.#arm(this.#dueOf(this.#heap[0] as T));
  };

  #pop(): T {
    const heap = this.#heap;
    const top = heap[0] as T;
    const last = heap.pop() as T;
    const n = heap.length;
    if (n > 0) {
      const due = this.#dueOf(last);
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        const r = l + 1;
        const c = r < n && this.#dueOf(heap[r] as T) < this.#dueOf(heap[l] as T) ? r : l;
        if (this.#dueOf(heap[c] as T) >= due) break;
        heap[i] = heap[c] as T;
        i = c;
      }
      heap[i] = last;
    }
    return top;
  }
}
