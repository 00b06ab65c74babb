/**
 * The in-flight values of the claims this process holds, per key, so that `release(key)` deletes only
 * its own claim (compare-and-delete) and never a claim another instance took after this one expired.
 * Bounded: entries past their TTL are swept when it grows beyond `maxEntries`, then the oldest go (a forgotten claim
 * is not released early: it expires after its in-flight TTL).
 *
 * @example
 * const tokens = new ClaimTokens();
 * tokens.set('id:m1', 'in-flight:ab12:1', 60_000);
 * tokens.take('id:m1'); // 'in-flight:ab12:1', and forgotten
 */
export class ClaimTokens {
  private readonly entries = new Map<string, { value: string; expiresAt: number }>();

  constructor(
    private readonly maxEntries = 100_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** How many claims are tracked. */
  get size(): number {
    return this.entries.size;
  }

  /** Remembers the value a claim wrote, for as long as the claim lasts. */
  set(key: string, value: string, ttlMs: number): void {
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt: this.now() + ttlMs });
    if (this.entries.size > this.maxEntries) this.sweep();
  }

  /** The value the claim of `key` wrote, forgetting it; `undefined` when this process holds none. */
  take(key: string): string | undefined {
    const entry = this.entries.get(key);
    this.entries.delete(key);
    return entry?.value;
  }

  /** Forgets every claim. */
  clear(): void {
    this.entries.clear();
  }

  private sweep(): void {
    const now = this.now();
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(key);
    // Still full: the oldest go, down to 90 % so the next sets do not sweep again at once.
    const target = Math.floor(this.maxEntries * 0.9);
    for (const key of this.entries.keys()) {
      if (this.entries.size <= target) break;
      this.entries.delete(key);
    }
  }
}
