import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Analytics, CallTooLargeError, MAX_BATCH_BYTES, MAX_CALL_BYTES } from '../src/index.js';
import { startCaptureServer, type CaptureServer } from './helpers/capture-server.js';

let server: CaptureServer;
let analytics: Analytics;

beforeEach(async () => {
  server = await startCaptureServer();
});
afterEach(async () => {
  await analytics?.close();
  await server.close();
});

describe('32 KB per call', () => {
  it('refuses a call over 32 KB with an error naming size and limit; the others are sent', async () => {
    analytics = new Analytics('wk', { endpoint: server.url, flushAfter: 60_000 });
    analytics.track({ userId: 'u1', event: 'Before' });
    let error: unknown;
    try {
      analytics.track({ userId: 'u1', event: 'Huge', properties: { blob: 'x'.repeat(33 * 1024) } });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(CallTooLargeError);
    const e = error as CallTooLargeError;
    expect(e.callType).toBe('track');
    expect(e.limit).toBe(MAX_CALL_BYTES);
    expect(e.bytes).toBeGreaterThan(33 * 1024);
    expect(e.message).toContain(String(e.bytes));
    expect(e.message).toContain(String(MAX_CALL_BYTES));
    analytics.track({ userId: 'u1', event: 'After' });
    await analytics.flush();
    expect(server.delivered().map((m) => m.event)).toEqual(['Before', 'After']);
  });

  it('counts UTF-8 bytes, not characters', () => {
    analytics = new Analytics('wk', { endpoint: server.url, flushAfter: 60_000 });
    // 12,000 three-byte characters: 36,000 bytes but only 12,000 characters.
    expect(() => analytics.track({ userId: 'u1', event: 'E', properties: { s: '€'.repeat(12_000) } })).toThrow(
      CallTooLargeError,
    );
    // Just under the limit is accepted.
    const room = MAX_CALL_BYTES - 200;
    expect(() => analytics.track({ userId: 'u1', event: 'E', properties: { s: 'a'.repeat(room) } })).not.toThrow();
  });
});

describe('500 KB per batch', () => {
  it('splits a flush over 500 KB into several batches and drops nothing', async () => {
    analytics = new Analytics('wk', { endpoint: server.url, flushAt: 100, flushAfter: 60_000 });
    const ids: string[] = [];
    // 60 calls of ~30 KB: ~1.8 MB, under flushAt, so only size splitting cuts it.
    for (let i = 0; i < 60; i++) {
      ids.push(analytics.track({ userId: 'u1', event: 'Big', properties: { i, pad: 'p'.repeat(30_000) } }));
    }
    await analytics.flush();
    expect(server.requests.length).toBeGreaterThanOrEqual(4);
    for (const r of server.requests) expect(r.raw.length).toBeLessThanOrEqual(MAX_BATCH_BYTES);
    // Batches are filled: every batch but one (the rest, cut last) could not take one more message.
    // Batches travel on up to four connections at once, so the partial one may arrive before a full one.
    const sizes = server.requests.map((r) => r.raw.length).sort((a, b) => b - a);
    for (const size of sizes.slice(0, -1)) expect(size + 30_100).toBeGreaterThan(MAX_BATCH_BYTES);
    expect(
      server
        .delivered()
        .map((m) => m.messageId)
        .sort(),
    ).toEqual([...ids].sort());
  });

  it('sends a batch as soon as the queued bytes fill one, before flushAt is reached', async () => {
    analytics = new Analytics('wk', { endpoint: server.url, flushAt: 1000, flushAfter: 60_000 });
    for (let i = 0; i < 20; i++)
      analytics.track({ userId: 'u1', event: 'Big', properties: { pad: 'p'.repeat(30_000) } });
    await server.waitForRequests(1);
    expect(server.requests[0]!.raw.length).toBeLessThanOrEqual(MAX_BATCH_BYTES);
    expect(server.requests[0]!.body.batch.length).toBe(16);
  });
});
