// MemoryIdempotencyStore: claim / complete / release semantics, TTLs on an injected clock, and its size bound.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MemoryIdempotencyStore } from '../src/index.js';

function clock(start = 1_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => void (t += ms) };
}

describe('MemoryIdempotencyStore', () => {
  it('claim → in-flight → done, as the receiver uses it', () => {
    const s = new MemoryIdempotencyStore();
    expect(s.claim('k', 60_000)).toBe('claimed');
    expect(s.claim('k', 60_000)).toBe('in-flight');
    s.complete('k', 60_000);
    expect(s.claim('k', 60_000)).toBe('done');
  });

  it('release frees an in-flight claim, but never forgets a handled key', () => {
    const s = new MemoryIdempotencyStore();
    s.claim('a', 1000);
    s.release('a');
    expect(s.claim('a', 1000)).toBe('claimed');
    s.complete('a', 1000);
    s.release('a');
    expect(s.claim('a', 1000)).toBe('done');
    s.release('never-claimed');
    expect(s.size).toBe(1);
  });

  it('a handled key is remembered for its TTL, then forgotten', () => {
    const c = clock();
    const s = new MemoryIdempotencyStore({ now: c.now });
    s.claim('k', 100);
    s.complete('k', 5000);
    c.advance(4999);
    expect(s.claim('k', 100)).toBe('done');
    c.advance(1);
    expect(s.claim('k', 100)).toBe('claimed');
  });

  it('an in-flight claim expires (its instance died) so that a retry can run', () => {
    const c = clock();
    const s = new MemoryIdempotencyStore({ now: c.now });
    expect(s.claim('k', 100)).toBe('claimed');
    c.advance(99);
    expect(s.claim('k', 100)).toBe('in-flight');
    c.advance(1);
    expect(s.claim('k', 100)).toBe('claimed');
  });

  it('is bounded: the oldest handled keys are forgotten first', () => {
    const s = new MemoryIdempotencyStore({ maxEntries: 3 });
    for (let i = 0; i < 10; i++) {
      s.claim(`k${i}`, 1000);
      s.complete(`k${i}`, 60_000);
    }
    expect(s.size).toBe(3);
    expect(s.claim('k9', 1000)).toBe('done');
    expect(s.claim('k8', 1000)).toBe('done');
    expect(s.claim('k0', 1000)).toBe('claimed');
  });

  it('keeps running claims over handled keys when it must evict, within 10% over the bound', () => {
    const s = new MemoryIdempotencyStore({ maxEntries: 100 });
    s.claim('running', 60_000);
    for (let i = 0; i < 500; i++) {
      s.claim(`k${i}`, 1000);
      s.complete(`k${i}`, 60_000);
    }
    expect(s.size).toBeLessThanOrEqual(100);
    expect(s.claim('running', 60_000)).toBe('in-flight');
  });

  it('holds every running claim up to 10% over the bound: the 11th of 10 is not forgotten', () => {
    const s = new MemoryIdempotencyStore({ maxEntries: 10 });
    for (let i = 0; i < 11; i++) expect(s.claim(`k${i}`, 60_000)).toBe('claimed');
    expect(s.size).toBe(11);
    for (let i = 0; i < 11; i++) expect(s.claim(`k${i}`, 60_000)).toBe('in-flight');
  });

  it('evicts a claim whose in-flight time is up (at its very expiry) before any handled key', () => {
    let now = 0;
    const s = new MemoryIdempotencyStore({ maxEntries: 10, now: () => now });
    s.claim('stale', 1);
    now = 1; // its in-flight TTL ends now: no longer running
    for (let i = 0; i < 10; i++) {
      s.claim(`k${i}`, 1000);
      s.complete(`k${i}`, 60_000);
    }
    expect(s.size).toBe(10);
    for (let i = 9; i >= 0; i--) expect(s.claim(`k${i}`, 1000)).toBe('done');
  });

  it('never grows past 110% of the bound, even when every key is in flight', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 50 }),
        fc.array(fc.tuple(fc.constantFrom('claim', 'complete', 'release'), fc.integer({ min: 0, max: 200 })), {
          maxLength: 400,
        }),
        (max, ops) => {
          const s = new MemoryIdempotencyStore({ maxEntries: max });
          for (const [op, k] of ops) {
            if (op === 'claim') s.claim(`k${k}`, 60_000);
            else if (op === 'complete') s.complete(`k${k}`, 60_000);
            else s.release(`k${k}`);
            expect(s.size).toBeLessThanOrEqual(Math.floor(max * 1.1) + 1);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('refuses a bad maxEntries, naming it', () => {
    for (const maxEntries of [0, -1, 1.5, Number.NaN]) {
      expect(() => new MemoryIdempotencyStore({ maxEntries })).toThrow(/maxEntries/);
    }
  });
});
