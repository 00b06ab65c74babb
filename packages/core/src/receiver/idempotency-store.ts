/**
 * A value, or a promise of it: in-memory stores answer at once, shared stores over the network.
 *
 * @example
 * const claimed = new Set<string>();
 * const release = (key: string): Awaitable<void> => { claimed.delete(key); }; // sync is fine
 * await release('id:m1');
 */
export type Awaitable<T> = T | Promise<T>;

/**
 * What a claim found: the caller should handle it, someone is handling it now, or it is done.
 *
 * @example
 * const result: ClaimResult = await store.claim('id:m1', 60_000);
 * if (result === 'done') console.log('already handled: answer 200 without running it');
 */
export type ClaimResult = 'claimed' | 'in-flight' | 'done';

/**
 * Where the receiver remembers which messages it has handled, so a retry of the same bytes does not
 * run the handler twice. A claim must be atomic (set-if-absent) so that two instances receiving the
 * same message at once run the handler once.
 *
 * @example
 * const store: IdempotencyStore = new MemoryIdempotencyStore({ maxEntries: 50_000 });
 * createReceiver({ secret, dedupe: { store } });
 */
export interface IdempotencyStore {
  /** Atomically marks `key` in flight for `inFlightTtlMs` unless present; returns what was there. */
  claim(key: string, inFlightTtlMs: number): Awaitable<ClaimResult>;
  /** Marks `key` handled for `ttlMs` (the handler succeeded). */
  complete(key: string, ttlMs: number): Awaitable<void>;
  /** Forgets an in-flight `key` (the handler failed), so the sender's retry runs it again. */
  release(key: string): Awaitable<void>;
}

/**
 * Options of `MemoryIdempotencyStore`.
 *
 * @example
 * let now = 0; // a test clock
 * const options: MemoryIdempotencyStoreOptions = { maxEntries: 1_000, now: () => now };
 * const store = new MemoryIdempotencyStore(options);
 */
export interface MemoryIdempotencyStoreOptions {
  /** Most keys kept; the oldest are forgotten first. Default 100,000. */
  maxEntries?: number;
  /** Clock, for tests. Default `Date.now`. */
  now?: () => number;
}

interface Entry {
  state: 'in-flight' | 'done';
  expiresAt: number;
}

/**
 * The default store: one process's memory, bounded in size, with TTLs. For receivers on several
 * instances use a shared store (`@hookgate/redis`).
 *
 * @example
 * const store = new MemoryIdempotencyStore({ maxEntries: 10_000 });
 */
export class MemoryIdempotencyStore implements IdempotencyStore {
  private readonly entries = new Map<string, Entry>();
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(options: MemoryIdempotencyStoreOptions = {}) {
    this.maxEntries = options.maxEntries ?? 100_000;
    if (!Number.isInteger(this.maxEntries) || this.maxEntries < 1) {
      throw new RangeError(`maxEntries must be a whole number above 0 (got ${options.maxEntries}).`);
    }
    this.now = options.now ?? Date.now;
  }

  /** How many keys are held (expired ones included until swept). */
  get size(): number {
    return this.entries.size;
  }

  claim(key: string, inFlightTtlMs: number): ClaimResult {
    const now = this.now();
    const hit = this.entries.get(key);
    if (hit && hit.expiresAt > now) return hit.state;
    this.set(key, { state: 'in-flight', expiresAt: now + inFlightTtlMs });
    return 'claimed';
  }

  complete(key: string, ttlMs: number): void {
    this.set(key, { state: 'done', expiresAt: this.now() + ttlMs });
  }

  release(key: string): void {
    if (this.entries.get(key)?.state === 'in-flight') this.entries.delete(key);
  }

  private set(key: string, entry: Entry): void {
    this.entries.delete(key); // re-insert at the end: Map order is the eviction order
    this.entries.set(key, entry);
    if (this.entries.size > this.maxEntries) {
      const now = this.now();
      for (const [k, e] of this.entries) {
        if (this.entries.size <= this.maxEntries) break;
        // Evict the oldest; an in-flight entry is kept while it still runs unless nothing else is left.
        if (e.state === 'in-flight' && e.expiresAt > now && this.entries.size <= this.maxEntries * 1.1) continue;
        this.entries.delete(k);
      }
    }
  }
}
