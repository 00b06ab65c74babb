import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  CLOSED_REASON,
  createEmulator,
  EmulatorClosedError,
  ManualClock,
  ReplayError,
  type Attempt,
  type DeliveryRecord,
} from '@hookgate/emulator';
import { startCaptureReceiver } from '../helpers/capture-receiver.js';

describe('events, drain, replay and close', () => {
  const open: Array<{ close(): Promise<unknown> }> = [];
  afterEach(async () => {
    for (const o of open.splice(0).reverse()) await o.close();
  });
  const setup = async (answer: Parameters<typeof startCaptureReceiver>[0], clock?: ManualClock) => {
    const receiver = await startCaptureReceiver(answer);
    const emulator = createEmulator({
      ...(clock ? { clock } : {}),
      retry: { initialDelayMs: 10 },
      sources: [
        {
          writeKey: 'wk',
          webhooks: { enabled: true, endpoints: [{ url: `${receiver.url}/hook` }], sharedSecret: 'k1' },
        },
      ],
    });
    open.push(receiver, emulator);
    return { receiver, emulator };
  };

  it("emits received, attempt, delivered and failed in order; off() removes a listener; a throwing listener doesn't stop delivery", async () => {
    const { emulator } = await setup((req) => (req.json.event === 'bad' ? 400 : 200));
    const log: string[] = [];
    const onAttempt = (a: Attempt, r: DeliveryRecord) => log.push(`attempt ${r.id} ${a.status}`);
    emulator.on('received', (r) => log.push(`received ${r.id}`));
    emulator.on('attempt', onAttempt);
    emulator.on('delivered', (r) => log.push(`delivered ${r.id}`));
    emulator.on('failed', (r) => log.push(`failed ${r.id} ${r.reason?.slice(0, 21)}`));
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    emulator.on('delivered', () => {
      throw new Error('listener bug');
    });
    emulator.track({ userId: 'u1', event: 'ok' });
    await emulator.drain();
    emulator.track({ userId: 'u1', event: 'bad' });
    await emulator.drain();
    emulator.off('attempt', onAttempt);
    emulator.track({ userId: 'u1', event: 'ok' });
    await emulator.drain();
    const written = stderr.mock.calls.map((c) => String(c[0]));
    stderr.mockRestore();
    expect(log).toEqual([
      'received dlv_1',
      'attempt dlv_1 200',
      'delivered dlv_1',
      'received dlv_2',
      'attempt dlv_2 400',
      'failed dlv_2 every endpoint failed',
      'received dlv_3',
      'delivered dlv_3',
    ]);
    expect(written.join('')).toMatch(/a 'delivered' listener threw: Error: listener bug/);
    expect(emulator.get('dlv_3')?.state).toBe('delivered');
    expect(emulator.deliveries.map((d) => d.id)).toEqual(['dlv_1', 'dlv_2', 'dlv_3']);
  });

  it("records what was sent, not the caller's object; a record serializes to JSON with every field", async () => {
    const { emulator, receiver } = await setup(() => 200, new ManualClock({ start: '2026-02-02T02:02:02.002Z' }));
    const properties: Record<string, unknown> = { plan: 'pro' };
    const record = emulator.track({ userId: 'u1', event: 'E', properties });
    properties.plan = 'changed after the call';
    await emulator.drain();
    expect(receiver.received[0]?.json.properties).toEqual({ plan: 'pro' });
    expect(record.message).toMatchObject({ type: 'track', properties: { plan: 'pro' } });
    const json = JSON.parse(JSON.stringify(record)) as Record<string, unknown>;
    expect(json).toMatchObject({
      id: record.id,
      state: 'delivered',
      receivedAt: '2026-02-02T02:02:02.002Z',
      firstAttemptAt: '2026-02-02T02:02:02.002Z',
      body: record.body,
      signature: `${record.signature!.slice(0, 6)}…(40 chars)`, // JSON is for logs: never the full signature
      message: { event: 'E' },
      attempts: [{ status: 200, at: '2026-02-02T02:02:02.002Z', body: record.body, outcome: 'delivered' }],
    });
    expect((json.attempts as Array<Record<string, unknown>>)[0]?.requestHeaders).toMatchObject({
      'X-Signature': `${record.signature!.slice(0, 6)}…(40 chars)`,
    });
    expect(JSON.stringify(record)).not.toContain(record.signature);
  });

  it('drain() resolves only when nothing is pending (real clock)', async () => {
    const { emulator, receiver } = await setup((_, i) => (i % 2 === 0 ? { status: 503, delayMs: 5 } : 200));
    const records = Array.from({ length: 20 }, (_, i) => emulator.track({ userId: `u${i}`, event: 'E' }));
    expect(records.every((r) => r.state === 'pending')).toBe(true);
    await emulator.drain();
    expect(records.every((r) => r.state === 'delivered')).toBe(true);
    expect(receiver.received.length).toBeGreaterThanOrEqual(20);
    await emulator.drain(); // nothing pending: resolves at once
  });

  it('replay(id) re-delivers the same bytes as a new record, signed with the current secret', async () => {
    const { emulator, receiver } = await setup(() => 200, new ManualClock());
    const original = emulator.track({ userId: 'u1', event: 'E' });
    await emulator.drain();
    emulator.updateSource('wk', {
      webhooks: { enabled: true, endpoints: [{ url: `${receiver.url}/new` }], sharedSecret: 'k2' },
    });
    const again = emulator.replay(original.id);
    await emulator.drain();
    expect(again).toMatchObject({ replayOf: original.id, origin: 'replay', state: 'delivered', body: original.body });
    expect(again.id).not.toBe(original.id);
    const got = receiver.received[1]!;
    expect(got.url).toBe('/new');
    expect(got.text).toBe(original.body);
    expect(got.headers['x-signature']).toBe(createHmac('sha1', 'k2').update(got.body).digest('hex'));
    expect(() => emulator.replay('dlv_404')).toThrow(ReplayError);
    const anon = emulator.track({ anonymousId: 'a1', event: 'E' });
    expect(() => emulator.replay(anon.id)).toThrow(/no message to send/);
  });

  it('close() with work pending reports it: failed with a reason, emitted, in-flight requests aborted, nothing dropped', async () => {
    const clock = new ManualClock();
    const { emulator, receiver } = await setup((req) => (req.json.event === 'hang' ? 'hang' : 500), clock);
    const failed: string[] = [];
    emulator.on('failed', (r) => failed.push(r.id));
    let answered = 0;
    const firstAnswers = new Promise<void>((resolve) => emulator.on('attempt', () => ++answered === 30 && resolve()));
    const waiting = Array.from({ length: 30 }, (_, i) => emulator.track({ userId: `u${i}`, event: 'retry me' }));
    const hanging = emulator.track({ userId: 'h', event: 'hang' });
    await firstAnswers; // the 500s came back; the hanging one is still in flight
    await new Promise((r) => setTimeout(r, 20));
    expect(receiver.received).toHaveLength(31);
    expect(waiting.every((r) => r.state === 'pending' && r.nextAttemptAt !== undefined)).toBe(true);
    const report = await emulator.close();
    expect(report.pending.map((r) => r.id).sort()).toEqual([...waiting, hanging].map((r) => r.id).sort());
    for (const r of report.pending) {
      expect(r.state).toBe('failed');
      expect(r.reason).toBe(CLOSED_REASON);
    }
    expect(failed.sort()).toEqual(report.pending.map((r) => r.id).sort());
    expect(hanging.attempts.at(-1)?.error).toMatchObject({ code: 'aborted' });
    expect(clock.pendingTimers).toBe(0);
    expect(emulator.deliveries.filter((d) => d.state === 'pending')).toEqual([]);
    expect(() => emulator.track({ userId: 'u', event: 'late' })).toThrow(EmulatorClosedError);
    expect((await emulator.close()).pending).toEqual([]);
    const before = receiver.received.length;
    await clock.runAll();
    expect(receiver.received.length).toBe(before); // no retry after close
  });

  it('a message taken while close() runs (a received listener closes the emulator) is recorded failed, not left pending', async () => {
    const { emulator, receiver } = await setup(() => 200, new ManualClock());
    const failed: string[] = [];
    emulator.on('failed', (r) => failed.push(r.id));
    let report: Promise<{ pending: readonly { id: string }[] }> | undefined;
    emulator.on('received', () => {
      report ??= emulator.close();
    });
    const record = emulator.track({ userId: 'u1', event: 'closing' });
    const { pending } = await (report as NonNullable<typeof report>);
    expect(pending.map((r) => r.id)).toEqual([record.id]);
    expect(record.state).toBe('failed');
    expect(record.reason).toBe(CLOSED_REASON);
    expect(failed).toEqual([record.id]);
    await new Promise((r) => setTimeout(r, 30));
    expect(receiver.received).toHaveLength(0);
    expect(record.attempts).toHaveLength(0);
  });
});
