import type { Entry } from './message.js';

/**
 * The in-memory queue of serialized messages, oldest first. Taking from the front is O(1) amortized
 * (a moving head, compacted now and then), so a long queue drains in linear time.
 */
export class MessageQueue {
  #items: Entry[] = [];
  #head = 0;
  #bytes = 0;

  /** Messages waiting. */
  get length(): number {
    return this.#items.length - this.#head;
  }

  /** Bytes the waiting messages take in a batch body (their JSON plus the commas between them). */
  get bytes(): number {
    const n = this.length;
    return n === 0 ? 0 : this.#bytes + n - 1;
  }

  /** Adds a message at the back. */
  push(entry: Entry): void {
    this.#items.push(entry);
    this.#bytes += entry.bytes;
  }

  /**
   * Takes up to `maxCount` messages from the front whose JSON, joined by commas, fits in
   * `maxBytes`. Always takes at least one message when any waits (a single call always fits).
   */
  take(maxCount: number, maxBytes: number): Entry[] {
    const items = this.#items;
    const start = this.#head;
    let end = start;
    let used = 0;
    while (end < items.length && end - start < maxCount) {
      const size = (items[end] as Entry).bytes + (end > start ? 1 : 0);
      if (end > start && used + size > maxBytes) break;
      used += size;
      end++;
    }
    const taken = items.slice(start, end);
    for (const entry of taken) this.#bytes -= entry.bytes;
    this.#head = end;
    if (this.#head === items.length) {
      this.#items = [];
      this.#head = 0;
    } else if (this.#head > 1024 && this.#head * 2 > items.length) {
      this.#items = items.slice(this.#head);
      this.#head = 0;
    }
    return taken;
  }
}
