/**
 * Claims that failed or timed out on the caller's side but may still reach Redis (a frozen or slow
 * server runs the commands queued in the socket once it answers again; a client that gave up waiting
 * does not cancel them). Each is taken back with a token-checked release (compare-and-delete: never
 * a `done`, never another claim), sent at once right behind the claim, and, while Redis does not
 * answer, again once a `PING` probe gets through. Any answer to a release settles it: commands on one
 * connection run in order, so the late claim ran before it (and was deleted) or never will.
 *
 * @example
 * const late = new LateClaims((redisKey, value) => RELEASE_SCRIPT.evalSource(client, [redisKey], [value]), () => client.ping(), 1000);
 * late.add('hookgate:dedupe:id:m1', 'in-flight:ab12:7', 60_000); // the claim of id:m1 timed out
 */
export class LateClaims {
  /** Per Redis key, the values of its late claims, with when each expires on its own. */
  private readonly pending = new Map<string, Array<{ value: string; expiresAt: number }>>();
  private count = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private probing = false;
  private closed = false;

  constructor(
    /** Sends one token-checked release; resolves with Redis's answer, rejects when it got none. */
    private readonly release: (redisKey: string, value: string) => Promise<unknown>,
    /** One cheap round trip that tells whether Redis answers again (`PING`), under a timeout. */
    private readonly probe: () => Promise<unknown>,
    /** Pause between probes while Redis does not answer. */
    private readonly retryMs: number,
    private readonly maxEntries = 100_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** How many late claims are still to be taken back. */
  get size(): number {
    return this.count;
  }

  /** Whether `redisKey` has late claims still to be taken back. */
  has(redisKey: string): boolean {
    return this.pending.has(redisKey);
  }

  /** Records a claim that failed or timed out, and sends its release right behind it. */
  add(redisKey: string, value: string, ttlMs: number): void {
    if (this.closed) return;
    this.keep(redisKey, [{ value, expiresAt: this.now() + ttlMs }]);
    void this.settle(redisKey).catch(() => undefined); // kept, and retried after a probe
  }

  /**
   * Sends the releases of the late claims of `redisKey` now (before a new claim of it, on the same
   * connection, so they run first); resolves when Redis answered them all, rejects (keeping the
   * unanswered ones) when it did not.
   */
  async settle(redisKey: string): Promise<void> {
    const now = this.now();
    const entries = this.take(redisKey).filter((e) => e.expiresAt > now); // expired: Redis dropped them already
    if (entries.length === 0) return;
    const outcomes = await Promise.allSettled(entries.map((e) => this.release(redisKey, e.value)));
    const unanswered = entries.filter((_, i) => outcomes[i]!.status === 'rejected');
    if (unanswered.length === 0) return;
    this.keep(redisKey, unanswered);
    this.schedule();
    throw (outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult).reason;
  }

  /** Forgets every late claim and stops probing (they expire after their in-flight TTL). */
  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.pending.clear();
    this.count = 0;
  }

  private keep(redisKey: string, entries: Array<{ value: string; expiresAt: number }>): void {
    const now = this.now();
    const alive = entries.filter((e) => e.expiresAt > now);
    if (alive.length === 0) return;
    const list = this.pending.get(redisKey);
    if (list) list.push(...alive);
    else this.pending.set(redisKey, alive);
    this.count += alive.length;
    // Bounded: past the limit the oldest keys are forgotten (their claims expire on their own).
    for (const key of this.pending.keys()) {
      if (this.count <= this.maxEntries) break;
      this.count -= this.take(key).length;
    }
  }

  private take(redisKey: string): Array<{ value: string; expiresAt: number }> {
    const entries = this.pending.get(redisKey) ?? [];
    this.pending.delete(redisKey);
    this.count -= entries.length;
    return entries;
  }

  private schedule(delayMs = this.retryMs): void {
    if (this.closed || this.timer !== undefined || this.probing || this.count === 0) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.retry();
    }, delayMs);
    this.timer.unref?.();
  }

  /** One probe; when Redis answers it, every late claim's release goes out at once. */
  private async retry(): Promise<void> {
    if (this.closed || this.count === 0) return;
    this.probing = true;
    let answered = true;
    try {
      await this.probe();
    } catch {
      answered = false;
    }
    if (answered && !this.closed) {
      const keys = [...this.pending.keys()];
      await Promise.allSettled(keys.map((key) => this.settle(key)));
    }
    this.probing = false;
    this.schedule();
  }
}
