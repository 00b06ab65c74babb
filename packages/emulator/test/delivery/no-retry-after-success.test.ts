// Seed §6: each endpoint gets the message; once delivery to any one succeeds, the message is
// processed and not retried to the others. Retries already waiting in a slow endpoint's queue
// (concurrency 1) must not start after another endpoint answered 2xx; first attempts keep the
// fan-out. Over real HTTP, on the system clock and on a ManualClock.
import { afterEach, describe, expect, it } from 'vitest';
import { createEmulator, ManualClock, type Clock, type DeliveryRecord, type Emulator } from '../../src/index.js';
import { startCaptureReceiver, type CaptureReceiver } from '../helpers/capture-receiver.js';
import { watchRequestStarts, type RequestStart } from '../helpers/request-starts.js';

const MESSAGES = 8;

describe('no retry starts after an endpoint answered 2xx', () => {
  let emulator: Emulator | undefined;
  const receivers: CaptureReceiver[] = [];
  let unwatch: (() => void) | undefined;
  afterEach(async () => {
    unwatch?.();
    await emulator?.close();
    for (const r of receivers.splice(0)) await r.close();
    emulator = unwatch = undefined;
  });

  async function run(clock: Clock | undefined) {
    // A fails each message's first attempt, then answers 200; B always answers 500 after 150 ms.
    const seenByA = new Set<string>();
    const a = await startCaptureReceiver((req) => {
      const sig = String(req.headers['x-signature']);
      if (seenByA.has(sig)) return 200;
      seenByA.add(sig);
      return 500;
    });
    const b = await startCaptureReceiver(() => ({ status: 500, delayMs: 150 }));
    receivers.push(a, b);
    emulator = createEmulator({
      ...(clock ? { clock } : {}),
      concurrency: 1,
      retry: { initialDelayMs: 20, jitter: 'none', windowMs: 60_000 },
      sources: [
        {
          writeKey: 'wk',
          webhooks: { enabled: true, endpoints: [{ url: `${a.url}/a` }, { url: `${b.url}/b` }], sharedSecret: 'k' },
        },
      ],
    });

    // The order of events in this process: request starts (as they get their socket) and deliveries.
    const timeline: Array<{ kind: 'start'; start: RequestStart } | { kind: 'delivered'; signature: string }> = [];
    unwatch = watchRequestStarts((start) => timeline.push({ kind: 'start', start }));
    emulator.on('delivered', (r) => timeline.push({ kind: 'delivered', signature: r.signature ?? '' }));

    const records: DeliveryRecord[] = [];
    for (let i = 0; i < MESSAGES; i++) records.push(emulator.track({ userId: 'u1', event: `E${i}` }));
    await emulator.drain();
    return { a, b, records, timeline };
  }

  function check(
    { a, b, records, timeline }: Awaited<ReturnType<typeof run>>,
    { minCancelled, maxToB }: { minCancelled: number; maxToB: number },
  ) {
    expect(records.map((r) => r.state)).toEqual(Array(MESSAGES).fill('delivered'));
    expect(records.every((r) => r.deliveredTo?.endsWith('/a'))).toBe(true);

    // No request of a message started, in this process, after its delivery — except first attempts.
    const delivered = new Set<string>();
    const startsPerTarget = new Map<string, number>();
    const late: string[] = [];
    for (const e of timeline) {
      if (e.kind === 'delivered') delivered.add(e.signature);
      else {
        const key = `${e.start.path} ${e.start.signature}`;
        const n = (startsPerTarget.get(key) ?? 0) + 1;
        startsPerTarget.set(key, n);
        if (n > 1 && delivered.has(e.start.signature)) late.push(key);
      }
    }
    expect(late).toEqual([]);

    // Fan-out kept: B got every message's first attempt, even queued behind its own slow answers.
    const sigs = records.map((r) => r.signature);
    for (const sig of sigs)
      expect(b.received.filter((r) => r.headers['x-signature'] === sig).length).toBeGreaterThanOrEqual(1);
    expect(b.received.length).toBeLessThanOrEqual(maxToB);
    // Every request B got is in the log (none unaccounted for), and every attempt logged reached it.
    const attemptsToB = records.flatMap((r) =>
      r.attempts.filter((x) => x.endpoint.endsWith('/b') && x.error?.code !== 'timeout'),
    );
    expect(b.received.length).toBeGreaterThanOrEqual(attemptsToB.length);
    expect(a.received.length).toBe(2 * MESSAGES);

    // The retries that did not start are logged as cancelled, with why.
    const cancelled = records.flatMap((r) => r.cancelled.map((c) => ({ ...c, r })));
    expect(cancelled.length).toBeGreaterThanOrEqual(minCancelled);
    for (const c of cancelled) {
      expect(c.endpoint).toMatch(/\/b$/);
      expect(c.round).toBeGreaterThan(1);
      expect(c.reason).toMatch(/^endpoint 1 \(http:\/\/127\.0\.0\.1:\d+\/a\) answered 200: /);
      expect(c.recordId).toBe(c.r.id);
      // Not also attempted in that round.
      expect(c.r.attempts.some((at) => at.endpoint === c.endpoint && at.round === c.round)).toBe(false);
    }
    // Every retry round either reached B or was cancelled for B: nothing silently dropped.
    for (const r of records) {
      const lastRound = Math.max(...r.attempts.map((x) => x.round));
      for (let round = 2; round <= lastRound; round++) {
        const toB =
          r.attempts.some((x) => x.endpoint.endsWith('/b') && x.round === round) ||
          r.cancelled.some((c) => c.round === round);
        expect(toB, `${r.id} round ${round}`).toBe(true);
      }
    }
  }

  it('on the system clock', { timeout: 20_000 }, async () => {
    // Every retry but the last message's waits behind B's slow first attempts, and is cancelled once
    // A answers 200; the last one finds B's queue free and starts with A's, before A answers. Without the
    // rule B gets about 15 requests.
    // (Margins for a loaded machine: A's 200 may come after B's queue reached a retry, which then starts, legitimately.)
    check(await run(undefined), { minCancelled: MESSAGES / 2, maxToB: MESSAGES + MESSAGES / 2 });
  });

  it('on a ManualClock', { timeout: 20_000 }, async () => {
    // The clock moves past B's slow requests once they are quiet for ioGraceMs (presumed hanging), so
    // retry rounds start while B's queue is still busy: their B retries wait, and are cancelled.
    check(await run(new ManualClock({ start: '2026-01-01T00:00:00.000Z', ioGraceMs: 40 })), {
      minCancelled: 1,
      maxToB: 2 * MESSAGES,
    });
  });
});
