// A dedupe store for tests that watch what the receiver asks of its store.
import { MemoryIdempotencyStore, type ClaimResult, type IdempotencyStore } from '../../src/index.js';

/**
 * The real memory store (`inner`: hold or check a claim there as another instance would), recording
 * each call in `log` (`claim <key> <in-flight TTL>`, `complete <key> <TTL>`, `release <key>`) and
 * throwing `store down` on the claims `failClaim` picks, as a store that is down does.
 *
 * @example
 * const store = new RecordingStore();
 * store.failClaim = (key) => key === 'id:m1';
 * createReceiver({ secret, dedupe: { store }, onMessage });
 */
export class RecordingStore implements IdempotencyStore {
  readonly log: string[] = [];
  readonly inner = new MemoryIdempotencyStore();
  failClaim: (key: string) => boolean = () => false;

  async claim(key: string, inFlightTtlMs: number): Promise<ClaimResult> {
    this.log.push(`claim ${key} ${inFlightTtlMs}`);
    if (this.failClaim(key)) throw new Error('store down');
    return this.inner.claim(key, inFlightTtlMs);
  }

  async complete(key: string, ttlMs: number): Promise<void> {
    this.log.push(`complete ${key} ${ttlMs}`);
    this.inner.complete(key, ttlMs);
  }

  async release(key: string): Promise<void> {
    this.log.push(`release ${key}`);
    this.inner.release(key);
  }
}
