// Record and attempt times are kept as compact offsets (log/compact-time.ts): what is read back must be
// exactly the clock's time, for clocks near the process's origin and years away from it.
import { afterEach, describe, expect, it } from 'vitest';
import { createEmulator, ManualClock, type Emulator } from '@hookgate/emulator';
import { fromCompactMs, toCompactMs } from '../src/log/compact-time.js';
import type { LoggedAttempt } from '../src/log/delivery-record.js';
import { startCaptureReceiver, type CaptureReceiver } from './helpers/capture-receiver.js';

describe('compact record times', () => {
  const open: Array<{ close(): Promise<unknown> }> = [];
  afterEach(async () => {
    for (const o of open.splice(0).reverse()) await o.close();
  });

  it('round-trips any epoch milliseconds exactly, fractional and far from the origin included', () => {
    for (const ms of [
      Date.now(),
      Date.now() + 0.25,
      0,
      -86_400_000,
      Date.UTC(1999, 11, 31, 23, 59, 59, 999),
      Date.UTC(2300, 0, 1),
      8.64e15,
    ]) {
      expect(fromCompactMs(toCompactMs(ms))).toBe(ms);
    }
  });

  for (const start of ['2026-11-25T10:00:00.000Z', '1999-12-31T23:59:59.999Z', '2299-06-01T00:00:00.000Z']) {
    it(`times read back exactly on a clock at ${start}`, async () => {
      const r: CaptureReceiver = await startCaptureReceiver(() => 503);
      open.push(r);
      const clock = new ManualClock({ start });
      const e: Emulator = createEmulator({
        clock,
        sources: [{ writeKey: 'wk', webhooks: { enabled: true, endpoints: [{ url: `${r.url}/h` }] } }],
        retry: { windowMs: 60_000 },
      });
      open.push(e);
      const record = e.track({ userId: 'u1', event: 'E' });
      await clock.settle();
      expect(record.receivedAt).toBe(start);
      expect(record.firstAttemptAt).toBe(start);
      expect(record.attempts[0]?.at).toBe(start);
      expect(Date.parse(record.nextAttemptAt as string)).toBeGreaterThan(Date.parse(start));
      expect(Date.parse(record.nextAttemptAt as string)).toBeLessThanOrEqual(Date.parse(start) + 60_000);
      const duration = record.attempts[0]?.durationMs as number;
      expect(duration).toBeGreaterThanOrEqual(0);
      // Hundredths of a millisecond, as before (x * 100 is not exact in binary: compare as it was made).
      expect(Math.round(duration * 100) / 100).toBe(duration);
      await e.drain();
      expect(record.state).toBe('failed');
      expect(record.reason).toMatch(/gave up|every endpoint/);
      // A jittered backoff is fractional; the retry is scheduled at the next whole millisecond (never
      // early), so every time is a whole number, kept unboxed, and the ISO form is exact.
      const atMs = (record.attempts as readonly LoggedAttempt[]).map((a) => a.atMs); // the engine's own times
      expect(record.attempts.length).toBeGreaterThan(2);
      expect(atMs).toEqual(record.attempts.map((a) => Date.parse(a.at)));
      expect(atMs.every((ms) => Number.isInteger(ms))).toBe(true);
      for (let k = 1; k < atMs.length; k++) expect(atMs[k] as number).toBeGreaterThan(atMs[k - 1] as number);
      expect(record.reason).toContain('503'); // each endpoint's last error, read back from the attempts
    });
  }
});
