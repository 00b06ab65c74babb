// The delivery log's retention (maxRecords): finished records are evicted oldest first, pending ones
// never; counters keep counting. Real receivers on 127.0.0.1, a ManualClock for the pending ones.
import { afterEach, describe, expect, it } from 'vitest';
import {
  createEmulator,
  DEFAULT_MAX_RECORDS,
  ManualClock,
  ReplayError,
  SettingsError,
  type Emulator,
} from '../../src/index.js';
import { startCaptureReceiver, type CaptureReceiver } from '../helpers/capture-receiver.js';

let receiver: CaptureReceiver | undefined;
let emulator: Emulator | undefined;

afterEach(async () => {
  await emulator?.close();
  await receiver?.close();
  emulator = undefined;
  receiver = undefined;
});

describe('delivery log retention (maxRecords)', () => {
  it('defaults to 100,000 and refuses a bad value, naming maxRecords', () => {
    expect(DEFAULT_MAX_RECORDS).toBe(100_000);
    for (const bad of [0, -1, 2.5, '10', NaN]) {
      expect(() => createEmulator({ maxRecords: bad as number })).toThrow(SettingsError);
      expect(() => createEmulator({ maxRecords: bad as number })).toThrow(
        /Invalid setting maxRecords: must be a whole number ≥ 1, or Infinity/,
      );
    }
    expect(() => createEmulator({ maxRecords: Infinity })).not.toThrow();
  });

  it('evicts finished records oldest first, keeps every pending one, and keeps counting', async () => {
    receiver = await startCaptureReceiver((req) => (JSON.parse(req.text).event === 'Fail' ? 503 : 200));
    const clock = new ManualClock();
    emulator = createEmulator({
      clock,
      maxRecords: 3,
      retry: { initialDelayMs: 60_000, jitter: 'none' },
      sources: [
        { writeKey: 'wk_on', webhooks: { enabled: true, endpoints: [{ url: `${receiver.url}/hook` }] } },
        { writeKey: 'wk_off', webhooks: { enabled: false, endpoints: [{ url: `${receiver.url}/off` }] } },
      ],
    });
    // Two records that stay pending (503, next round a minute of virtual time away).
    const p1 = emulator.track({ userId: 'u1', event: 'Fail' }, { writeKey: 'wk_on' });
    const p2 = emulator.track({ userId: 'u1', event: 'Fail' }, { writeKey: 'wk_on' });
    await clock.runUntil(() => receiver!.received.length === 2);
    await new Promise((r) => setTimeout(r, 50));
    expect([p1.state, p2.state]).toEqual(['pending', 'pending']);
    // Five filtered ones.
    const filtered = Array.from({ length: 5 }, (_, i) =>
      emulator!.track({ userId: 'u2', event: `F${i}` }, { writeKey: 'wk_off' }),
    );
    expect(filtered.every((r) => r.state === 'filtered')).toBe(true);

    const log = emulator.deliveries;
    expect(log.map((r) => r.id)).toEqual([p1.id, p2.id, filtered[4]!.id]);
    expect(emulator.deliveries).toBe(log); // the same array, compacted in place
    expect(emulator.get(filtered[0]!.id)).toBeUndefined();
    expect(emulator.get(filtered[4]!.id)).toBe(filtered[4]);
    expect(emulator.get(p1.id)).toBe(p1);
    expect(() => emulator!.replay(filtered[0]!.id)).toThrow(ReplayError);
    expect(() => emulator!.replay(filtered[0]!.id)).toThrow(/evicted from the delivery log \(maxRecords/);
    expect(() => emulator!.replay('dlv_999')).toThrow(/no delivery record has this id/);
    expect(emulator.deliveryCounts()).toEqual({
      total: 7,
      pending: 2,
      delivered: 0,
      failed: 0,
      filtered: 5,
      evicted: 4,
    });
    expect(emulator.usage('wk_off')).toBe(5);

    // Only pending records and more than maxRecords of them: none is evicted.
    const more = Array.from({ length: 3 }, () =>
      emulator!.track({ userId: 'u1', event: 'Fail' }, { writeKey: 'wk_on' }),
    );
    expect(emulator.deliveries.map((r) => r.id)).toEqual([p1.id, p2.id, ...more.map((r) => r.id)]);
    expect(emulator.deliveries.every((r) => r.state === 'pending')).toBe(true);

    // Once they are delivered (the receiver now answers 200), the oldest finished ones go.
    receiver.answer(() => 200);
    await emulator.drain();
    expect(emulator.deliveries.map((r) => r.id)).toEqual(more.map((r) => r.id));
    expect(emulator.deliveryCounts()).toEqual({
      total: 10,
      pending: 0,
      delivered: 5,
      failed: 0,
      filtered: 5,
      evicted: 7,
    });
  });

  it('keeps the log bounded over many writes (amortized eviction), and health reports the totals', async () => {
    emulator = createEmulator({
      maxRecords: 100,
      sources: [{ writeKey: 'wk_off', webhooks: { enabled: false, endpoints: [{ url: 'http://127.0.0.1:9/x' }] } }],
    });
    for (let i = 0; i < 5_000; i++) emulator.track({ userId: `u${i}`, event: 'E' });
    expect(emulator.deliveries).toHaveLength(100);
    expect(emulator.deliveries[0]!.id).toBe('dlv_4901');
    expect(emulator.deliveries[99]!.id).toBe('dlv_5000');
    const intake = await emulator.listen();
    try {
      const health = (await (await fetch(`${intake.url}/_hookgate/health`)).json()) as {
        deliveries: Record<string, number>;
      };
      expect(health.deliveries).toEqual({
        total: 5000,
        pending: 0,
        delivered: 0,
        failed: 0,
        filtered: 5000,
        evicted: 4900,
      });
    } finally {
      await intake.close();
    }
  });
});
