import { once } from 'node:events';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createEmulator, ManualClock, type Emulator, type EmulatorOptions } from '@hookgate/emulator';
import { startCaptureReceiver, type Answer, type CaptureReceiver, type Received } from '../helpers/capture-receiver.js';
import { startSelfSignedServer } from '../helpers/self-signed.js';
import { startHttpServer } from '../../../../test/helpers/servers.js';

const HOUR = 3_600_000;
const ms = (iso: string | undefined) => Date.parse(iso ?? '');

/** A port with nothing listening: connections are refused. */
async function closedPort(): Promise<number> {
  const s = net.createServer().listen(0, '127.0.0.1');
  await once(s, 'listening');
  const { port } = s.address() as net.AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}

describe('delivery: several endpoints, timeouts, retries, 4xx/429/3xx policy, TLS (seed §4.1, §6, §7)', () => {
  const open: Array<{ close(): Promise<unknown> }> = [];
  afterEach(async () => {
    for (const o of open.splice(0).reverse()) await o.close();
  });
  const receiver = async (answer?: (req: Received, index: number) => Answer) => {
    const r = await startCaptureReceiver(answer);
    open.push(r);
    return r;
  };
  const emulator = (urls: string[], options: Partial<EmulatorOptions> = {}): Emulator => {
    const e = createEmulator({
      clock: new ManualClock(),
      sources: [
        { writeKey: 'wk', webhooks: { enabled: true, endpoints: urls.map((url) => ({ url })), sharedSecret: 's' } },
      ],
      ...options,
    });
    open.push(e);
    return e;
  };
  const urls = (...rs: CaptureReceiver[]) => rs.map((r) => `${r.url}/hook`);

  it('sends the first attempt to every endpoint; once one answers 2xx the others are not retried', async () => {
    const a = await receiver(() => 500);
    const b = await receiver(() => ({ status: 200, delayMs: 30 }));
    const c = await receiver(() => 'reset');
    const slow = await receiver(() => ({ status: 503, delayMs: 120 })); // answers after b delivered
    const e = emulator(urls(a, b, c, slow));
    const record = e.track({ userId: 'u1', event: 'E' });
    await e.drain();
    expect([a.received.length, b.received.length, c.received.length, slow.received.length]).toEqual([1, 1, 1, 1]);
    // drain() waited for the slower endpoint's answer too: every attempt is in the log.
    expect(record.attempts).toHaveLength(4);
    expect(record.attempts.at(-1)).toMatchObject({ endpoint: `${slow.url}/hook`, status: 503, outcome: 'retry' });
    expect(record.state).toBe('delivered');
    expect(record.deliveredTo).toBe(`${b.url}/hook`);
    expect(record.attempts.map((x) => x.round)).toEqual([1, 1, 1, 1]);
    // Same bytes to each endpoint.
    expect(new Set([a, b, c, slow].map((r) => r.received[0]?.text)).size).toBe(1);
  });

  it('retries every endpoint while none answered 2xx (5xx, reset, refused), then delivers', async () => {
    const a = await receiver((_, i) => (i < 2 ? 502 : 200));
    const b = await receiver(() => 'reset');
    const refused = `http://127.0.0.1:${await closedPort()}/hook`;
    const e = emulator([...urls(a, b), refused]);
    const record = e.track({ userId: 'u1', event: 'E' });
    await e.drain();
    expect(record.state).toBe('delivered');
    expect(record.deliveredTo).toBe(`${a.url}/hook`);
    expect(a.received).toHaveLength(3);
    expect(b.received).toHaveLength(3);
    const refusedAttempts = record.attempts.filter((x) => x.endpoint === refused);
    expect(refusedAttempts).toHaveLength(3);
    expect(refusedAttempts[0]?.error).toMatchObject({ code: 'connection', cause: 'ECONNREFUSED' });
    expect(record.attempts.filter((x) => x.endpoint === `${b.url}/hook`)[0]?.error?.code).toBe('connection');
    expect(record.attempts.map((x) => x.round)).toEqual([1, 1, 1, 2, 2, 2, 3, 3, 3]);
  });

  it('logs a timeout after 5 s without an answer (the default, on the virtual clock) and retries', async () => {
    const a = await receiver((_, i) => (i === 0 ? 'hang' : 200));
    const e = emulator(urls(a));
    const timeouts: string[] = [];
    e.on('attempt', (attempt) => attempt.error?.code === 'timeout' && timeouts.push(attempt.error.message));
    const started = performance.now();
    const record = e.track({ userId: 'u1', event: 'E' });
    await e.drain();
    expect(record.state).toBe('delivered');
    expect(timeouts).toEqual(['no answer within 5000 ms (timeoutMs)']);
    const [first, second] = record.attempts;
    expect(first?.outcome).toBe('retry');
    expect(ms(second?.at) - ms(first?.at)).toBeGreaterThanOrEqual(5000);
    expect(performance.now() - started).toBeLessThan(5000); // virtual 5 s, not real
  });

  it('times out an answer whose body never ends (status seen, timeout recorded)', async () => {
    let calls = 0;
    const server = await startHttpServer((req, res) => {
      req.resume();
      if (calls++ === 0) {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write('partial'); // ... and never end
      } else res.end('ok');
    });
    open.push(server);
    const e = emulator([`${server.url}/hook`]);
    const record = e.track({ userId: 'u1', event: 'E' });
    await e.drain();
    expect(record.attempts[0]).toMatchObject({ status: 200, outcome: 'retry', error: { code: 'timeout' } });
    expect(record.state).toBe('delivered');
    expect(record.attempts).toHaveLength(2);
  });

  it('times out on the real clock too (short timeoutMs)', async () => {
    const a = await receiver((_, i) => (i === 0 ? 'hang' : 200));
    const e = emulator(urls(a), { clock: undefined, timeoutMs: 150, retry: { initialDelayMs: 20 } });
    const record = e.track({ userId: 'u1', event: 'E' });
    await e.drain();
    expect(record.attempts[0]?.error?.code).toBe('timeout');
    expect(record.attempts[0]?.durationMs).toBeGreaterThanOrEqual(140);
    expect(record.state).toBe('delivered');
  });

  it('retries 5xx and connection errors with randomized exponential backoff for 4 h, then fails with the last reason', async () => {
    const a = await receiver(() => 503);
    const refused = `http://127.0.0.1:${await closedPort()}/hook`;
    const e = emulator([`${a.url}/hook`, refused]);
    const failed: string[] = [];
    e.on('failed', (r) => failed.push(r.id));
    const record = e.track({ userId: 'u1', event: 'E' });
    await e.drain();
    expect(record.state).toBe('failed');
    expect(failed).toEqual([record.id]);
    expect(record.reason).toMatch(/^gave up: the next retry would start more than 4 h after the first attempt/);
    expect(record.reason).toContain('503 Service Unavailable');
    expect(record.reason).toContain('ECONNREFUSED');
    const first = ms(record.firstAttemptAt);
    const roundStarts = [...new Set(record.attempts.map((x) => ms(x.at)))];
    const last = roundStarts.at(-1) as number;
    expect(last - first).toBeLessThanOrEqual(4 * HOUR);
    expect(last - first).toBeGreaterThan(3 * HOUR); // the delay cap is 1 h, so the last round is in the last hour
    // Exponential caps with full jitter: gap n ≤ min(1 h, 1 s × 2^(n-1)), and not all gaps are the cap.
    const gaps = roundStarts.slice(1).map((t, i) => t - (roundStarts[i] as number));
    gaps.forEach((gap, i) => expect(gap).toBeLessThanOrEqual(Math.min(HOUR, 1000 * 2 ** i) + 1));
    expect(gaps.some((gap, i) => gap < Math.min(HOUR, 1000 * 2 ** i) * 0.9)).toBe(true);
    expect(a.received.length).toBe(roundStarts.length);
    expect(roundStarts.length).toBeGreaterThan(12);
  });

  it('fails a 4xx at once by default (one endpoint rejected; the other keeps being retried)', async () => {
    const rejecting = await receiver(() => ({ status: 400, body: '{"error":"bad"}' }));
    const flaky = await receiver((_, i) => (i < 1 ? 500 : 200));
    const e = emulator(urls(rejecting, flaky));
    const record = e.track({ userId: 'u1', event: 'E' });
    await e.drain();
    expect(rejecting.received).toHaveLength(1);
    expect(record.state).toBe('delivered');
    expect(record.attempts.find((x) => x.status === 400)).toMatchObject({
      outcome: 'fail',
      responseBody: '{"error":"bad"}',
    });

    const only = await receiver(() => 404);
    const e2 = emulator(urls(only));
    const r2 = e2.track({ userId: 'u1', event: 'E' });
    await e2.drain();
    expect(r2.state).toBe('failed');
    expect(only.received).toHaveLength(1);
    expect(r2.reason).toMatch(/every endpoint failed for good: .*404 Not Found: the receiver rejected the message/);
  });

  it("retries 4xx with responsePolicy.clientErrors: 'retry', and 408 by default", async () => {
    const a = await receiver((_, i) => (i < 2 ? 422 : 200));
    const e = emulator(urls(a), { responsePolicy: { clientErrors: 'retry' } });
    const r = e.track({ userId: 'u1', event: 'E' });
    const b = await receiver((_, i) => (i < 1 ? 408 : 200));
    const e2 = emulator(urls(b));
    const r2 = e2.track({ userId: 'u1', event: 'E' });
    await Promise.all([e.drain(), e2.drain()]);
    expect(r.attempts.map((x) => x.status)).toEqual([422, 422, 200]);
    expect(r2.attempts.map((x) => x.status)).toEqual([408, 200]);
  });

  it('honours Retry-After on a 429 within the window (and ignores it when honorRetryAfter is false)', async () => {
    const a = await receiver((_, i) => (i === 0 ? { status: 429, headers: { 'Retry-After': '120' } } : 200));
    const e = emulator(urls(a));
    const r = e.track({ userId: 'u1', event: 'E' });
    await e.drain();
    expect(r.attempts[0]?.responseHeaders?.['retry-after']).toBe('120');
    expect(ms(r.attempts[1]?.at) - ms(r.attempts[0]?.at)).toBeGreaterThanOrEqual(120_000);

    const b = await receiver((_, i) => (i === 0 ? { status: 429, headers: { 'Retry-After': '120' } } : 200));
    const e2 = emulator(urls(b), { responsePolicy: { honorRetryAfter: false } });
    const r2 = e2.track({ userId: 'u1', event: 'E' });
    await e2.drain();
    expect(ms(r2.attempts[1]?.at) - ms(r2.attempts[0]?.at)).toBeLessThanOrEqual(1000);

    const c = await receiver(() => ({ status: 429, headers: { 'Retry-After': String(5 * 3600) } }));
    const e3 = emulator(urls(c));
    const r3 = e3.track({ userId: 'u1', event: 'E' });
    await e3.drain();
    expect(r3.state).toBe('failed');
    expect(r3.attempts).toHaveLength(1);
    expect(r3.reason).toMatch(/more than 4 h after the first attempt.*429 Too Many Requests/);
  });

  it('refuses a self-signed HTTPS endpoint: tls error, no request sent; trusting its CA with tls.ca delivers', async () => {
    const tlsServer = await startSelfSignedServer();
    open.push(tlsServer);
    const e = emulator([`${tlsServer.url}/hook`]);
    const r = e.track({ userId: 'u1', event: 'E' });
    await e.drain();
    expect(r.state).toBe('failed');
    expect(r.attempts).toHaveLength(1);
    expect(r.attempts[0]?.error?.code).toBe('tls');
    expect(r.attempts[0]?.error?.message).toMatch(/TLS handshake failed, no request sent: .*self[- ]signed/i);
    expect(r.reason).toMatch(/tls/);
    expect(tlsServer.requests).toBe(0);

    const trusted = emulator([`${tlsServer.url}/hook`], { tls: { ca: tlsServer.cert } });
    const r2 = trusted.track({ userId: 'u1', event: 'E' });
    await trusted.drain();
    expect(r2.state).toBe('delivered');
    expect(tlsServer.requests).toBe(1);
  });
});
