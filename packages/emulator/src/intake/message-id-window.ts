/**
 * The tracking API's dedupe: the `(writeKey, messageId)` pairs accepted in the last `windowMs` on the
 * emulator's clock, each with the number of the record that took it. A client whose answer was lost
 * sends its batch again; a pair seen within the window is a duplicate. Memory stays bounded: entries
 * expire as the clock passes them (oldest first, checked on each use), and past `maxEntries` the
 * oldest is dropped early. Compact on purpose (about 130 bytes per entry with a 59-character
 * analytics-node messageId, most of it the messageId itself): one `Map` per write key from the
 * messageId string as parsed to the record's number, and the acceptance times in a ring in the same
 * order (one window for all, so acceptance order is expiry order).
 *
 * @example
 * const window = new MessageIdWindow(24 * 60 * 60 * 1000, 100_000);
 * window.firstSeen('wk', 'm-1', clock.now()); // undefined: new
 * window.remember('wk', 'm-1', clock.now(), 1);
 * window.firstSeen('wk', 'm-1', clock.now()); // 1: the record dlv_1 took it
 */
export class MessageIdWindow {
  /** Per write key: messageId → the number (`seq`) of the record that took it, in acceptance order. */
  readonly #byKey = new Map<string, Map<string, number>>();
  /** The acceptance times and maps of the entries, oldest at `#head`, in acceptance order. */
  #times: Float64Array;
  #maps: Array<Map<string, number> | undefined>;
  #head = 0;
  #size = 0;

  constructor(
    readonly windowMs: number,
    readonly maxEntries: number,
  ) {
    const initial = Math.min(maxEntries, 1024);
    this.#times = new Float64Array(initial);
    this.#maps = new Array<Map<string, number> | undefined>(initial).fill(undefined);
  }

  /** How many pairs are remembered now. */
  get size(): number {
    return this.#size;
  }

  /** The number of the record that took this pair within the window, or `undefined` when it is new (or expired). */
  firstSeen(writeKey: string, messageId: string, nowMs: number): number | undefined {
    this.#expire(nowMs);
    return this.#byKey.get(writeKey)?.get(messageId);
  }

  /** Remembers a pair just accepted by record number `seq`, until `nowMs + windowMs`. */
  remember(writeKey: string, messageId: string, nowMs: number, seq: number): void {
    this.#expire(nowMs);
    let map = this.#byKey.get(writeKey);
    if (map === undefined) this.#byKey.set(writeKey, (map = new Map()));
    if (map.has(messageId)) return; // the window runs from the first acceptance
    if (this.#size === this.maxEntries) this.#dropOldest();
    if (this.#size === this.#times.length) this.#grow();
    const at = (this.#head + this.#size) % this.#times.length;
    this.#times[at] = nowMs;
    this.#maps[at] = map;
    this.#size++;
    map.set(messageId, seq);
  }

  #expire(nowMs: number): void {
    while (this.#size > 0 && (this.#times[this.#head] as number) + this.windowMs <= nowMs) this.#dropOldest();
  }

  /** Forgets the oldest entry: the first of its write key's map (each map is in acceptance order too). */
  #dropOldest(): void {
    const map = this.#maps[this.#head] as Map<string, number>;
    const first = map.keys().next();
    if (!first.done) map.delete(first.value);
    this.#maps[this.#head] = undefined;
    this.#head = (this.#head + 1) % this.#times.length;
    this.#size--;
  }

  #grow(): void {
    const length = Math.min(this.maxEntries, this.#times.length * 2);
    const times = new Float64Array(length);
    const maps = new Array<Map<string, number> | undefined>(length).fill(undefined);
    for (let i = 0; i < this.#size; i++) {
      const from = (this.#head + i) % this.#times.length;
      times[i] = this.#times[from] as number;
      maps[i] = this.#maps[from];
    }
    this.#times = times;
    this.#maps = maps;
    this.#head = 0;
  }
}
