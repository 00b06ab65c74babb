// Endpoints that misbehave on the wire (raw net servers in their own process, test/fixtures/hostile-endpoint.ts)
// against the emulator's delivery transport: every answer is the answer to its own request, every
// request an endpoint reads is an attempt in the log, answers are read within a budget, and an
// upgrade, an interim answer alone or a body that never ends are named as what they are.
import { afterEach, describe, expect, it } from 'vitest';
import { createEmulator, ManualClock, type Clock, type DeliveryRecord, type Emulator } from '../../src/index.js';
const ANSWER_READ_LIMIT = 65536;
import { startHostileEndpoint, type HostileEndpoint, type HostileMode } from '../helpers/hostile-endpoint.js';

const open: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of open.splice(0).reverse()) await close();
});

async function endpoint(mode: HostileMode): Promise<HostileEndpoint> {
  const e = await startHostileEndpoint(mode);
  open.push(() => e.stop());
  return e;
}

function emulatorFor(url: string, options: { clock?: Clock; windowMs?: number; timeoutMs?: number } = {}): Emulator {
  const emulator = createEmulator({
    ...(options.clock ? { clock: options.clock } : {}),
    timeoutMs: options.timeoutMs ?? 5000,
    retry: { initialDelayMs: 10, jitter: 'none', windowMs: options.windowMs ?? 60_000 },
    sources: [{ writeKey: 'wk', webhooks: { enabled: true, endpoints: [{ url }] } }],
  });
  open.push(() => emulator.close());
  return emulator;
}

const attemptsOf = (records: DeliveryRecord[]) => records.flatMap((r) => r.attempts);

/** Waits until the endpoint has read `n` requests (or 5 s), then a little longer for any extra one. */
async function settledRequests(e: HostileEndpoint, n: number): Promise<number> {
  const until = Date.now() + 5000;
  while (e.requests() < n && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
  await new Promise((r) => setTimeout(r, 200));
  return e.requests();
}

function busyFor(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe('every answer belongs to its request', () => {
  it('503 then an unsolicited 200 on the same socket: no record is delivered by the stray 200', async () => {
    const e = await endpoint('unsolicited-200');
    const emulator = emulatorFor(e.url, { windowMs: 40 });
    const records = Array.from({ length: 100 }, (_, i) => emulator.track({ userId: `u${i}`, event: 'E' }));
    await emulator.drain();
    const attempts = attemptsOf(records);
    expect(records.filter((r) => r.state === 'delivered')).toEqual([]);
    expect(new Set(attempts.map((a) => a.status))).toEqual(new Set([503]));
    expect(await settledRequests(e, attempts.length)).toBe(attempts.length);
  });

  // Each request has a connection of its own, closed after its answer: a stray written after a success meets
  // no request, however late the endpoint's timer fires.
  it('200 then an unsolicited 500: every record delivered at its first attempt, one request per record', async () => {
    const e = await endpoint('unsolicited-500');
    const emulator = emulatorFor(e.url);
    const records = Array.from({ length: 100 }, (_, i) => emulator.track({ userId: `u${i}`, event: 'E' }));
    await emulator.drain();
    expect(records.map((r) => [r.state, r.attempts.map((a) => a.status)])).toEqual(
      records.map(() => ['delivered', [200]]),
    );
    expect(await settledRequests(e, 100)).toBe(100);
  });

  it('a stray answer written 150 ms after an answer reaches no request: the next one has its own connection', async () => {
    const e = await endpoint('late-500');
    const emulator = emulatorFor(e.url);
    const first = emulator.track({ userId: 'u1', event: 'E' });
    await emulator.drain();
    // The stray 500 comes 150 ms after the 200, on a connection the sender closed after the answer.
    await new Promise((r) => setTimeout(r, 400));
    const second = emulator.track({ userId: 'u2', event: 'E' });
    await emulator.drain();
    expect([first, second].map((r) => r.attempts.map((a) => a.status))).toEqual([[200], [200]]);
    expect(await settledRequests(e, 2)).toBe(2);
    expect(e.connections()).toBe(2);
  });

  for (const clock of ['system clock', 'ManualClock'] as const) {
    it(`a stray 500 that arrived while the sender's event loop was busy is not the next request's answer (${clock})`, async () => {
      const e = await endpoint('late-500');
      const emulator = emulatorFor(e.url, clock === 'ManualClock' ? { clock: new ManualClock() } : {});
      const first = emulator.track({ userId: 'u1', event: 'E' });
      await emulator.drain();
      expect(first.attempts.map((a) => a.status)).toEqual([200]);
      // The endpoint writes its stray 500 150 ms after the 200; the sender is busy until well after.
      busyFor(400);
      const second = emulator.track({ userId: 'u2', event: 'E' });
      await emulator.drain();
      expect(second.attempts.map((a) => [a.status, a.error?.code])).toEqual([[200, undefined]]);
      expect(second.state).toBe('delivered');
      expect(await settledRequests(e, 2)).toBe(2);
    });
  }

  it('"Connection: keep-alive" then a close after every answer: no attempt fails, one request per record', async () => {
    const e = await endpoint('close-after');
    const emulator = createEmulator({
      concurrency: 1,
      retry: { initialDelayMs: 10, jitter: 'none' },
      sources: [{ writeKey: 'wk', webhooks: { enabled: true, endpoints: [{ url: e.url }] } }],
    });
    open.push(() => emulator.close());
    const records = Array.from({ length: 200 }, (_, i) => emulator.track({ userId: `u${i}`, event: 'E' }));
    await emulator.drain();
    const attempts = attemptsOf(records);
    expect(attempts.filter((a) => a.error)).toEqual([]);
    expect(attempts).toHaveLength(200);
    expect(records.every((r) => r.state === 'delivered')).toBe(true);
    expect(await settledRequests(e, 200)).toBe(200);
  });
});

describe('answers are read within a budget', () => {
  it(`an endless 200 is read to ${ANSWER_READ_LIMIT} bytes, then closed: delivered by its status, long before the timeout`, async () => {
    const e = await endpoint('endless-200');
    const emulator = emulatorFor(e.url);
    const record = emulator.track({ userId: 'u1', event: 'E' });
    await emulator.drain();
    expect(record.state).toBe('delivered');
    const [attempt] = record.attempts;
    expect(attempt?.status).toBe(200);
    expect(attempt?.durationMs).toBeLessThan(2000);
    expect(attempt?.responseBody?.length).toBe(1024);
  });

  it('an endless 503 is read within the budget and retried for its status', async () => {
    const e = await endpoint('endless-503');
    const emulator = emulatorFor(e.url, { windowMs: 100 });
    const record = emulator.track({ userId: 'u1', event: 'E' });
    await emulator.drain();
    expect(record.state).toBe('failed');
    const [first] = record.attempts;
    expect([first?.status, first?.error?.code, first?.outcome]).toEqual([503, 'http', 'retry']);
    expect(first?.durationMs).toBeLessThan(2000);
  });
});

describe('answers named as what they are', () => {
  it('a 101 Switching Protocols is a protocol failure, not a timeout', async () => {
    const e = await endpoint('switch');
    const emulator = emulatorFor(e.url, { windowMs: 30, timeoutMs: 3000 });
    const record = emulator.track({ userId: 'u1', event: 'E' });
    await emulator.drain();
    const [attempt] = record.attempts;
    expect(attempt?.status).toBe(101);
    expect(attempt?.error?.code).toBe('protocol');
    expect(attempt?.error?.message).toMatch(/^101 Switching Protocols: the endpoint switched protocols/);
    expect(attempt?.durationMs).toBeLessThan(2000);
  });

  it('a 102 Processing and nothing more: no final answer, and the interim one is named', async () => {
    const e = await endpoint('interim');
    const emulator = emulatorFor(e.url, { windowMs: 30, timeoutMs: 300 });
    const record = emulator.track({ userId: 'u1', event: 'E' });
    await emulator.drain();
    expect(record.attempts[0]?.error).toEqual({
      code: 'timeout',
      message: 'no final answer within 300 ms (timeoutMs): only an interim answer came (102 Processing)',
      limitMs: 300,
    });
  });

  it('a 200 whose body never ends: a timeout that says the body did not end, never delivered', async () => {
    const e = await endpoint('stalled-body');
    const emulator = emulatorFor(e.url, { windowMs: 30, timeoutMs: 300 });
    const record = emulator.track({ userId: 'u1', event: 'E' });
    await emulator.drain();
    expect(record.state).toBe('failed');
    expect(record.attempts[0]?.status).toBe(200);
    expect(record.attempts[0]?.error).toEqual({
      code: 'timeout',
      message: 'the answer (200) came, but its body did not end within 300 ms (timeoutMs)',
      limitMs: 300,
    });
  });
});
