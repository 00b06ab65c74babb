/**
 * The tracking API's dedupe: the `(writeKey, messageId)` pairs accepted in the last `windowMs` on the
 * emulator's clock, each with the id of the record that took it. A client whose answer was lost sends
 * its batch again; a pair seen within the window is a duplicate. Memory stays bounded: entries expire
 * as the clock passes them (oldest first, checked on each use), and past `maxEntries` the oldest is
 * dropped early.
 *
 * @example
 * const window = new MessageIdWindow(24 * 60 * 60 * 1000, 100_000);
 * window.firstSeen('wk', 'm-1', clock.now()); // undefined: not seen, now remembered once `remember` is called
 * window.remember('wk', 'm-1', clock.now(), 'dlv_1');
 * window.firstSeen('wk', 'm-1', clock.now()); // { recordId: 'dlv_1', atMs: … }
 */
export class MessageIdWindow {
  /** In acceptance order, which is also expiry order (one window for all). */
  readonly #entries = new Map<string, SeenMessage>();

  constructor(
    readonly windowMs: number,
    readonly maxEntries: number,
  ) {}

  /** How many pairs are remembered now. */
  get size(): number {
    return this.#entries.size;
  }

  /** The acceptance of this pair within the window, or `undefined` when it is new (or expired). */
  firstSeen(writeKey: string, messageId: string, nowMs: number): SeenMessage | undefined {
    this.#expire(nowMs);
    return this.#entries.get(keyOf(writeKey, messageId));
  }

  /** Remembers a pair just accepted, until `nowMs + windowMs`. */
  remember(writeKey: string, messageId: string, nowMs: number, recordId: string): void {
    this.#expire(nowMs);
    const key = keyOf(writeKey, messageId);
    if (this.#entries.has(key)) return; // the window runs from the first acceptance
    this.#entries.set(key, { recordId, atMs: nowMs });
    if (this.#entries.size > this.maxEntries) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
  }

  #expire(nowMs: number): void {
    for (const [key, seen] of this.#entries) {
      if (seen.atMs + this.windowMs > nowMs) return;
      this.#entries.delete(key);
    }
  }
}

/** When a pair was first accepted, and the record that took it. */
export interface SeenMessage {
  readonly recordId: string;
  readonly atMs: number;
}

function keyOf(writeKey: string, messageId: string): string {
  // Length-prefixed: no two pairs give the same key, whatever characters they hold.
  return `${writeKey.length}:${writeKey}${messageId}`;
}
