// LateClaims: the bookkeeping behind "a claim that failed is taken back once Redis answers".
// Its two effects (release, probe) are plain functions here, driven as an unreachable Redis would be;
// frozen-recovery.test.ts runs the real thing against a redis-server.
import { describe, expect, it } from 'vitest';
import { LateClaims } from '../src/late-claims.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A fake Redis that does not answer until `up` is set; records the releases it ran. */
function fakeRedis() {
  const state = { up: false, released: [] as string[], probes: 0, attempts: 0 };
  const release = async (key: string, value: string) => {
    state.attempts++;
    if (!state.up) throw new Error('Command timed out');
    state.released.push(`${key}=${value}`);
    return 1;
  };
  const probe = async () => {
    state.probes++;
    if (!state.up) throw new Error('Command timed out');
    return 'PONG';
  };
  return { state, release, probe };
}

describe('LateClaims', () => {
  it('sends the release at once; when it gets no answer, retries after a probe gets through', async () => {
    const { state, release, probe } = fakeRedis();
    const late = new LateClaims(release, probe, 20);
    late.add('k1', 'v1', 60_000);
    late.add('k2', 'v2', 60_000);
    await sleep(5);
    expect(state.attempts).toBe(2); // sent right behind the claims
    expect(late.size).toBe(2);
    await sleep(80);
    expect(state.probes).toBeGreaterThan(0);
    expect(state.attempts).toBe(2); // no release flood while the probe fails
    state.up = true;
    await sleep(60);
    expect(state.released.sort()).toEqual(['k1=v1', 'k2=v2']);
    expect(late.size).toBe(0);
    const probes = state.probes;
    await sleep(60);
    expect(state.probes).toBe(probes); // nothing left: probing stops
    late.close();
  });

  it('keeps every failed claim of one key (two retries during the outage), and settle() sends them before a new claim', async () => {
    const { state, release, probe } = fakeRedis();
    const late = new LateClaims(release, probe, 10_000);
    late.add('k', 'first', 60_000);
    late.add('k', 'second', 60_000);
    await sleep(5);
    expect(late.has('k')).toBe(true);
    await expect(late.settle('k')).rejects.toThrow(/timed out/);
    expect(late.size).toBe(2); // kept after a failed settle
    state.up = true;
    await late.settle('k');
    expect(state.released).toEqual(['k=first', 'k=second']);
    expect(late.has('k')).toBe(false);
    late.close();
  });

  it('drops claims whose in-flight TTL has passed: Redis expired them already', async () => {
    let now = 1_000;
    const { state, release, probe } = fakeRedis();
    const late = new LateClaims(release, probe, 10_000, 100, () => now);
    late.add('k', 'v', 500);
    await sleep(5);
    expect(late.size).toBe(1);
    now += 600;
    state.up = true;
    await late.settle('k');
    expect(state.released).toEqual([]);
    expect(late.size).toBe(0);
    late.close();
  });

  it('is bounded: past maxEntries the oldest keys are forgotten', async () => {
    const { release, probe } = fakeRedis();
    const late = new LateClaims(release, probe, 10_000, 3);
    for (let i = 0; i < 5; i++) late.add(`k${i}`, 'v', 60_000);
    await sleep(5);
    expect(late.size).toBe(3);
    expect(['k0', 'k1', 'k2', 'k3', 'k4'].map((k) => late.has(k))).toEqual([false, false, true, true, true]);
    late.close();
    expect(late.size).toBe(0);
  });
});
