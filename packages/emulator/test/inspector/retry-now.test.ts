// Emulator.retryNow (the inspector's "Retry now"): on a ManualClock, so the schedule is exact.
import { describe, expect, it } from 'vitest';
import { createEmulator, ManualClock } from '@hookgate/emulator';
import { startCaptureReceiver } from '../helpers/capture-receiver.js';

describe('emulator.retryNow', () => {
  it('starts the waiting round at once, keeps the window from the first attempt, and is false when nothing waits', async () => {
    let n = 0;
    const receiver = await startCaptureReceiver(() => (n++ < 2 ? 500 : 200));
    const clock = new ManualClock({ start: '2026-11-24T00:00:00.000Z' });
    const emulator = createEmulator({
      clock,
      sources: [{ writeKey: 'wk', webhooks: { enabled: true, endpoints: [{ url: `${receiver.url}/hook` }] } }],
      retry: { initialDelayMs: 600_000, jitter: 'none', windowMs: 3_600_000 },
    });
    try {
      expect(emulator.retryNow('dlv_1')).toBe(false);
      const record = emulator.track({ userId: 'u1', event: 'E' });
      // While the first attempt is in flight, no retry waits.
      expect(emulator.retryNow(record.id)).toBe(false);
      while (record.nextAttemptAt === undefined) await new Promise((r) => setTimeout(r, 5));
      expect(record.nextAttemptAt).toBe('2026-11-24T00:10:00.000Z');
      await clock.advance(60_000);
      expect(emulator.retryNow(record.id)).toBe(true);
      expect(record.nextAttemptAt).toBeUndefined();
      while (record.attempts.length < 2) await new Promise((r) => setTimeout(r, 5));
      expect(record.attempts[1]?.at).toBe('2026-11-24T00:01:00.000Z');
      expect(record.attempts[1]?.round).toBe(2);
      // The next round's delay doubles (round 2 → 20 min), from now, not from the cancelled schedule.
      while (record.nextAttemptAt === undefined) await new Promise((r) => setTimeout(r, 5));
      expect(record.nextAttemptAt).toBe('2026-11-24T00:21:00.000Z');
      // The inspector's detail tells time on the emulator's clock (virtual here), not the wall clock.
      const intake = await emulator.listen();
      const detail = (await (await fetch(`${intake.url}/_hookgate/ui/api/deliveries/${record.id}`)).json()) as Record<
        string,
        unknown
      >;
      await intake.close();
      expect(detail).toMatchObject({
        now: '2026-11-24T00:01:00.000Z',
        nextAttemptAt: '2026-11-24T00:21:00.000Z',
        windowEndsAt: '2026-11-24T01:00:00.000Z',
        windowMs: 3_600_000,
        receivedAt: '2026-11-24T00:00:00.000Z',
      });
      expect((detail.attemptList as Array<{ at: string }>).map((a) => a.at)).toEqual([
        '2026-11-24T00:00:00.000Z',
        '2026-11-24T00:01:00.000Z',
      ]);
      expect(emulator.retryNow(record.id)).toBe(true);
      while (record.state === 'pending') await new Promise((r) => setTimeout(r, 5));
      expect(record.state).toBe('delivered');
      expect(emulator.retryNow(record.id)).toBe(false);
      expect(emulator.retryNow('not-an-id')).toBe(false);
    } finally {
      await emulator.close();
      await receiver.close();
    }
    expect(() => emulator.retryNow('dlv_1')).toThrow(/after close/);
  });
});
