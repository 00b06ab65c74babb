// The emulator's retry policy as a user of the emulator relies on it, over real HTTP on a ManualClock:
// which answers count as delivered, retried or failed (seed §6, §7); when the next round starts
// (backoff, Retry-After in both of its forms); `tlsErrors: 'retry'`. Pins what mutation testing
// (`pnpm test:mutation`) found unpinned.
import { afterEach, describe, expect, it } from 'vitest';
import { createEmulator, ManualClock, type EmulatorOptions } from '@hookgate/emulator';
import { startCaptureReceiver, type Answer, type Received } from '../helpers/capture-receiver.js';
import { startSelfSignedServer } from '../helpers/self-signed.js';

const START = Date.parse('2026-03-02T10:00:00.000Z');
const ms = (iso: string | undefined) => Date.parse(iso ?? '');
/** A schedule without jitter: the first retry 1 s after the first round, the second 2 s after that. */
const EXACT = { initialDelayMs: 1000, jitter: 'none', windowMs: 3_600_000 } as const;

describe('retry policy: which answers are delivered, retried or failed, and when the next round starts', () => {
  const open: Array<{ close(): Promise<unknown> }> = [];
  afterEach(async () => {
    for (const o of open.splice(0).reverse()) await o.close();
  });

  /** Sends one message to a receiver answering `answer`; returns the record once the emulator is idle. */
  async function deliver(answer: (req: Received, index: number) => Answer, options: Partial<EmulatorOptions> = {}) {
    const receiver = await startCaptureReceiver(answer);
    open.push(receiver);
    const emulator = createEmulator({
      clock: new ManualClock({ start: START }),
      retry: EXACT,
      sources: [
        {
          writeKey: 'wk',
          webhooks: { enabled: true, endpoints: [{ url: `${receiver.url}/hook` }], sharedSecret: 's' },
        },
      ],
      ...options,
    });
    open.push(emulator);
    const record = emulator.track({ userId: 'u1', event: 'E' });
    await emulator.drain();
    const gaps = record.attempts.slice(1).map((a, i) => ms(a.at) - ms(record.attempts[i]?.at));
    return { record, receiver, gaps };
  }

  it('counts 200 and 299 as delivered at once', async () => {
    for (const status of [200, 299]) {
      const { record } = await deliver(() => status);
      expect(record.state).toBe('delivered');
      expect(record.attempts).toMatchObject([{ status, outcome: 'delivered' }]);
    }
  });

  it('does not count a 300 or a 399 as delivered: a redirect is not followed and fails by default', async () => {
    for (const status of [300, 399]) {
      const { record, receiver } = await deliver(() => ({ status, headers: { location: '/elsewhere' } }));
      expect(record.state).toBe('failed');
      expect(receiver.received).toHaveLength(1);
      expect(record.attempts[0]).toMatchObject({ status, outcome: 'fail', error: { code: 'redirect' } });
      expect(record.attempts[0]?.error?.message).toMatch(
        new RegExp(`^${status}( [\\w ]+)?: redirects are not followed \\(Location: /elsewhere\\)$`),
      );
    }
  });

  it("retries a redirect with responsePolicy.redirects: 'retry'", async () => {
    const { record } = await deliver((_, i) => (i === 0 ? 302 : 200), { responsePolicy: { redirects: 'retry' } });
    expect(record.state).toBe('delivered');
    expect(record.attempts.map((a) => [a.status, a.outcome])).toEqual([
      [302, 'retry'],
      [200, 'delivered'],
    ]);
    expect(record.attempts[0]?.error?.message).toMatch(/^302 Found: redirects are not followed$/);
  });

  it('masks a token in a Location, and does not mix up two Locations of the same status', async () => {
    const { record } = await deliver(
      (_, i) => ({ status: 307, headers: { location: i === 0 ? '/login?token=s3cret' : '/other' } }),
      { responsePolicy: { redirects: 'retry' }, retry: { ...EXACT, windowMs: 1500 } },
    );
    const [first, second] = record.attempts.map((a) => a.error?.message ?? '');
    expect(first).toContain('redirects are not followed (Location: /login?token=');
    expect(first).not.toContain('s3cret');
    expect(second).toContain('(Location: /other)');
  });

  it('retries 500 and 599, fails 400 and 499 at once, and retries the retryStatuses (408, 429 by default)', async () => {
    for (const [status, outcome] of [
      [500, 'retry'],
      [599, 'retry'],
      [408, 'retry'],
      [429, 'retry'],
      [400, 'fail'],
      [499, 'fail'],
    ] as const) {
      const { record } = await deliver((_, i) => (i === 0 ? status : 200));
      expect(record.attempts[0], `status ${status}`).toMatchObject({ status, outcome, error: { code: 'http' } });
      expect(record.state).toBe(outcome === 'retry' ? 'delivered' : 'failed');
    }
  });

  it('names the fix when a 4xx fails, and replaces the retried 4xx statuses with responsePolicy.retryStatuses', async () => {
    const failed = await deliver(() => 409);
    expect(failed.record.attempts[0]?.error?.message).toBe(
      '409 Conflict: the receiver rejected the message (a 4xx is not retried; see responsePolicy.clientErrors)',
    );
    const custom = { responsePolicy: { retryStatuses: [409] } };
    const retried = await deliver((_, i) => (i === 0 ? 409 : 200), custom);
    expect(retried.record.attempts.map((a) => a.outcome)).toEqual(['retry', 'delivered']);
    expect(retried.record.attempts[0]?.error?.message).toBe('409 Conflict');
    const notListed = await deliver(() => 429, custom);
    expect(notListed.record.attempts).toMatchObject([{ status: 429, outcome: 'fail' }]);
  });

  it('starts the next rounds after the exact backoff: 1 s, 2 s, 4 s (jitter none)', async () => {
    const { gaps } = await deliver((_, i) => (i < 3 ? 500 : 200));
    expect(gaps).toEqual([1000, 2000, 4000]);
  });

  it('waits the Retry-After (delay-seconds) of a 503 as of a 429', async () => {
    for (const status of [503, 429]) {
      const { gaps } = await deliver((_, i) => (i === 0 ? { status, headers: { 'retry-after': '120' } } : 200));
      expect(gaps, `status ${status}`).toEqual([120_000]);
    }
  });

  it('ignores a Retry-After on other statuses, and everywhere with honorRetryAfter: false', async () => {
    const on500 = await deliver((_, i) => (i === 0 ? { status: 500, headers: { 'retry-after': '120' } } : 200));
    expect(on500.gaps).toEqual([1000]);
    const off = await deliver((_, i) => (i === 0 ? { status: 503, headers: { 'retry-after': '120' } } : 200), {
      responsePolicy: { honorRetryAfter: false },
    });
    expect(off.gaps).toEqual([1000]);
  });

  it('never retries sooner than the backoff because of a short Retry-After', async () => {
    const { gaps } = await deliver((_, i) => (i === 0 ? { status: 503, headers: { 'retry-after': '0' } } : 200), {
      retry: { ...EXACT, initialDelayMs: 10_000 },
    });
    expect(gaps).toEqual([10_000]);
  });

  it('reads the HTTP-date form of Retry-After against the emulator clock', async () => {
    const at = new Date(START + 300_000).toUTCString(); // "Mon, 02 Mar 2026 10:05:00 GMT"
    const { gaps } = await deliver((_, i) => (i === 0 ? { status: 503, headers: { 'retry-after': at } } : 200));
    expect(gaps).toHaveLength(1);
    // The first attempt's answer arrives a few virtual milliseconds after START at most.
    expect(gaps[0]).toBeGreaterThan(299_000);
    expect(gaps[0]).toBeLessThanOrEqual(300_000);
  });

  it('falls back to the backoff for a date in the past and for an unreadable Retry-After', async () => {
    for (const value of [new Date(START - 60_000).toUTCString(), 'soon', '12abc']) {
      const { gaps, record } = await deliver((_, i) =>
        i === 0 ? { status: 503, headers: { 'retry-after': value } } : 200,
      );
      expect(gaps, `Retry-After: ${value}`).toEqual([1000]);
      expect(record.state).toBe('delivered');
    }
  });

  it('gives up when a Retry-After points past the retry window', async () => {
    const { record, receiver } = await deliver(() => ({ status: 503, headers: { 'retry-after': '7200' } }));
    expect(record.state).toBe('failed');
    expect(receiver.received).toHaveLength(1);
    expect(record.reason).toMatch(/^gave up: the next retry would start more than 1 h after the first attempt/);
  });

  it("retries a TLS failure with responsePolicy.tlsErrors: 'retry' (no request is ever sent)", async () => {
    const server = await startSelfSignedServer();
    open.push(server);
    const emulator = createEmulator({
      clock: new ManualClock({ start: START }),
      retry: { ...EXACT, windowMs: 5000 },
      responsePolicy: { tlsErrors: 'retry' },
      sources: [{ writeKey: 'wk', webhooks: { enabled: true, endpoints: [{ url: server.url }], sharedSecret: 's' } }],
    });
    open.push(emulator);
    const record = emulator.track({ userId: 'u1', event: 'E' });
    await emulator.drain();
    // Rounds at 0, 1 s and 3 s; the next (7 s) is past the 5 s window.
    expect(record.attempts.map((a) => [a.error?.code, a.outcome])).toEqual([
      ['tls', 'retry'],
      ['tls', 'retry'],
      ['tls', 'retry'],
    ]);
    expect(record.state).toBe('failed');
    expect(server.requests).toBe(0);
  });
});
