import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Analytics, ClientClosedError, type DeliveryError, OptionError } from '../src/index.js';
import { delay, startCaptureServer, type CaptureServer } from './helpers/capture-server.js';

let server: CaptureServer;
beforeEach(async () => {
  server = await startCaptureServer();
});
afterEach(async () => {
  await server.close();
});

describe('close()', () => {
  it('sends all of 1,000 queued messages', async () => {
    const analytics = new Analytics('wk', { endpoint: server.url, flushAt: 5000, flushAfter: 60_000 });
    const sent: string[] = [];
    for (let i = 0; i < 1000; i++) sent.push(analytics.track({ userId: `u${i}`, event: 'Bulk', properties: { i } }));
    await delay(50);
    expect(server.requests).toHaveLength(0); // all 1,000 were still queued
    await analytics.close();
    const delivered = server.delivered().map((m) => m.messageId);
    expect(delivered).toHaveLength(1000);
    expect(new Set(delivered)).toEqual(new Set(sent));
  });

  it('sends all of 1,000 messages with the default flushAt while batches are in flight', async () => {
    const analytics = new Analytics('wk', { endpoint: server.url });
    const sent: string[] = [];
    for (let i = 0; i < 1000; i++) sent.push(analytics.track({ userId: `u${i}`, event: 'Bulk' }));
    await analytics.close();
    expect(server.requests.every((r) => r.body.batch.length === 20)).toBe(true);
    expect(
      server
        .delivered()
        .map((m) => m.messageId)
        .sort(),
    ).toEqual([...sent].sort());
  });

  it('refuses calls after close(), and a second close() returns the same promise', async () => {
    const analytics = new Analytics('wk', { endpoint: server.url });
    analytics.track({ userId: 'u1', event: 'A' });
    const closing = analytics.close();
    expect(() => analytics.track({ userId: 'u1', event: 'B' })).toThrow(ClientClosedError);
    expect(() => analytics.identify({ userId: 'u1' })).toThrow(/identify call after close\(\)/);
    expect(analytics.close()).toBe(closing);
    await closing;
    expect(server.delivered().map((m) => m.event)).toEqual(['A']);
  });

  it('waits for batches that are being retried', async () => {
    server.respond((n) => (n === 0 ? { status: 502 } : { status: 200 }));
    const analytics = new Analytics('wk', { endpoint: server.url, flushAt: 2 });
    analytics.track({ userId: 'u1', event: 'A' });
    analytics.track({ userId: 'u1', event: 'B' }); // sent now, answered 502, retried
    analytics.track({ userId: 'u1', event: 'C' });
    await server.waitForRequests(1);
    await analytics.close();
    expect(
      server
        .delivered()
        .map((m) => m.event)
        .sort(),
    ).toEqual(['A', 'B', 'C']);
  });
});

describe('close({ timeoutMs })', () => {
  /** A client whose onError keeps every DeliveryError. */
  const withErrors = (options: ConstructorParameters<typeof Analytics>[1]) => {
    const errors: DeliveryError[] = [];
    const analytics = new Analytics('wk', { ...options, endpoint: server.url, onError: (e) => errors.push(e) });
    const reported = () => errors.flatMap((e) => e.messages.map((m) => m.messageId));
    return { analytics, errors, reported };
  };

  it('with the endpoint failing, stops retrying when the time is up and reports every message as closed', async () => {
    server.respond(() => ({ status: 503 }));
    const { analytics, errors, reported } = withErrors({ flushAt: 2, maxRetries: 10 });
    const sent = [0, 1, 2, 3, 4].map((i) => analytics.track({ userId: 'u1', event: `E${i}` }));
    await server.waitForRequests(2); // the two full batches were tried and refused (503): now waiting for a retry
    const started = Date.now();
    await analytics.close({ timeoutMs: 300 });
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(280);
    expect(took).toBeLessThan(2_000); // without the limit: 10 retries with backoff, tens of seconds
    expect(errors.every((e) => e.reason === 'closed')).toBe(true);
    expect(errors[0]!.message).toMatch(/close\(\) gave up after 300 ms/);
    expect(reported().sort()).toEqual([...sent].sort()); // each one reported, none twice
    expect(server.delivered()).toEqual([]);
  });

  it('aborts a request in flight and says the server may have received it', async () => {
    server.respond(() => 'hang');
    const { analytics, errors } = withErrors({ flushAt: 1, timeoutMs: 10_000 });
    const id = analytics.track({ userId: 'u1', event: 'Stuck' });
    await server.waitForRequests(1);
    const started = Date.now();
    await analytics.close({ timeoutMs: 200 });
    expect(Date.now() - started).toBeLessThan(2_000); // not the 10 s request timeout
    expect(errors).toHaveLength(1);
    expect(errors[0]!.reason).toBe('closed');
    expect(errors[0]!.detail).toMatch(/in flight \(aborted: the server may have received it\)/);
    expect(errors[0]!.messages.map((m) => m.messageId)).toEqual([id]);
    expect(server.requests).toHaveLength(1);
  });

  it('reports messages still queued behind a stuck request as never sent', async () => {
    server.respond(() => 'hang');
    const { analytics, errors, reported } = withErrors({ flushAt: 1, maxInFlight: 1, timeoutMs: 10_000 });
    const sent = ['A', 'B', 'C'].map((event) => analytics.track({ userId: 'u1', event }));
    await server.waitForRequests(1);
    await analytics.close({ timeoutMs: 150 });
    expect(server.requests).toHaveLength(1); // B and C never left the queue
    expect(reported().sort()).toEqual([...sent].sort());
    expect(errors.filter((e) => /never sent/.test(e.detail)).flatMap((e) => e.messages.map((m) => m.event))).toEqual([
      'B',
      'C',
    ]);
    expect(errors.filter((e) => /in flight/.test(e.detail)).flatMap((e) => e.messages.map((m) => m.event))).toEqual([
      'A',
    ]);
  });

  it('delivers everything and reports nothing when the endpoint answers in time', async () => {
    const { analytics, errors } = withErrors({ flushAt: 3 });
    const sent = Array.from({ length: 10 }, (_, i) => analytics.track({ userId: 'u1', event: `E${i}` }));
    await analytics.close({ timeoutMs: 5_000 });
    expect(errors).toEqual([]);
    expect(
      server
        .delivered()
        .map((m) => m.messageId)
        .sort(),
    ).toEqual([...sent].sort());
  });

  it('refuses a timeoutMs that is not a number of milliseconds ≥ 0, naming it', () => {
    const analytics = new Analytics('wk', { endpoint: server.url });
    for (const bad of [-1, Number.NaN, Infinity, '500']) {
      expect(() => analytics.close({ timeoutMs: bad as number })).toThrow(OptionError);
      expect(() => analytics.close({ timeoutMs: bad as number })).toThrow(/"timeoutMs"/);
    }
    analytics.track({ userId: 'u1', event: 'still open' }); // a refused close() did not close the client
    return analytics.close();
  });
});

describe('flush() alongside the timer', () => {
  it('loses and duplicates nothing when flush(), close() and timer flushes overlap', async () => {
    server.respond((n) => (n % 3 === 1 ? { status: 500 } : { status: 200 })); // some retries, too
    const analytics = new Analytics('wk', { endpoint: server.url, flushAt: 7, flushAfter: 5, maxInFlight: 2 });
    const sent: string[] = [];
    const flushes: Promise<void>[] = [];
    for (let round = 0; round < 30; round++) {
      for (let i = 0; i < 5; i++) sent.push(analytics.track({ userId: 'u1', event: `R${round}`, properties: { i } }));
      if (round % 4 === 0) flushes.push(analytics.flush());
      await delay(round % 3 === 0 ? 6 : 0);
    }
    const closing = analytics.close();
    flushes.push(analytics.flush());
    await Promise.all([closing, ...flushes]);
    const delivered = server.delivered().map((m) => m.messageId);
    expect(delivered.length).toBe(sent.length);
    expect(new Set(delivered)).toEqual(new Set(sent));
  });

  it('flush() resolves only once the server answered', async () => {
    server.respond((n) => (n === 0 ? 'hang' : { status: 200 }));
    const analytics = new Analytics('wk', { endpoint: server.url, flushAfter: 60_000, timeoutMs: 300 });
    analytics.track({ userId: 'u1', event: 'A' });
    let done = false;
    const flushed = analytics.flush().then(() => {
      done = true;
    });
    await server.waitForRequests(1);
    await delay(150);
    expect(done).toBe(false); // no answer yet
    await flushed;
    expect(server.requests.map((r) => r.answered)).toEqual(['hang', 200]);
    await analytics.close();
  });
});

describe('the process', () => {
  const script = fileURLToPath(new URL('./helpers/child-client.ts', import.meta.url));
  const run = (mode: string) =>
    new Promise<{ code: number | null; ms: number }>((resolve, reject) => {
      const started = Date.now();
      const child = spawn(process.execPath, ['--import', 'tsx', script, server.url, mode], {
        stdio: ['ignore', 'inherit', 'inherit'],
        cwd: fileURLToPath(new URL('../../..', import.meta.url)),
      });
      const kill = setTimeout(() => child.kill('SIGKILL'), 15_000);
      child.on('error', reject);
      child.on('exit', (code) => {
        clearTimeout(kill);
        resolve({ code, ms: Date.now() - started });
      });
    });

  it('is not kept alive by the flush timer, and queued messages are sent before it exits on its own', async () => {
    // The child queues 3 calls with flushAfter: 60 s and never calls close().
    const { code, ms } = await run('no-close');
    expect(code).toBe(0);
    expect(ms).toBeLessThan(15_000);
    expect(server.delivered().map((m) => m.event)).toEqual(['E0', 'E1', 'E2']);
  });
});
