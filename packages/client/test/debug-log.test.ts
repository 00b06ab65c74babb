import { afterEach, describe, expect, it } from 'vitest';
import { debugEnabled } from '../src/debug-log.js';
import { Analytics } from '../src/index.js';
import { startCaptureServer } from './helpers/capture-server.js';

const previous = process.env.DEBUG;
afterEach(() => {
  if (previous === undefined) delete process.env.DEBUG;
  else process.env.DEBUG = previous;
});

/** Runs `fn` while collecting what is written to stderr. */
async function captureStderr(fn: () => Promise<void>): Promise<string> {
  const original = process.stderr.write.bind(process.stderr);
  let out = '';
  process.stderr.write = (chunk: string | Uint8Array) => {
    out += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString();
    return true;
  };
  try {
    await fn();
  } finally {
    process.stderr.write = original;
  }
  return out;
}

describe('DEBUG=analytics', () => {
  it('reads DEBUG as the debug package does', () => {
    expect(debugEnabled('analytics')).toBe(true);
    expect(debugEnabled('express:*,analytics')).toBe(true);
    expect(debugEnabled('*')).toBe(true);
    expect(debugEnabled('*,-analytics')).toBe(false);
    expect(debugEnabled('analytics-node')).toBe(false);
    expect(debugEnabled(undefined)).toBe(false);
  });

  it('logs queued, rejected, flushed, sent, retried and failed — never the write key', async () => {
    const server = await startCaptureServer((n) =>
      n === 0 ? { status: 500 } : n === 1 ? { status: 200 } : { status: 400 },
    );
    process.env.DEBUG = 'analytics';
    const writeKey = 'wk_SUPER_SECRET_123';
    const out = await captureStderr(async () => {
      const analytics = new Analytics(writeKey, { endpoint: server.url, flushAfter: 60_000, onError: () => {} });
      analytics.track({ userId: 'u1', event: 'A' });
      expect(() => analytics.track({ userId: 'u1' } as any)).toThrow();
      await analytics.flush(); // 500, then 200
      analytics.track({ userId: 'u1', event: 'B' });
      await analytics.flush(); // 400
      await analytics.close();
    });
    await server.close();
    for (const event of ['ready', 'queued', 'rejected', 'flushed', 'sent', 'retried', 'failed', 'closed']) {
      expect(out).toMatch(new RegExp(`^analytics \\S+ ${event} `, 'm'));
    }
    expect(out).toContain('HTTP 500');
    expect(out).not.toContain(writeKey);
    expect(out).not.toContain(Buffer.from(`${writeKey}:`).toString('base64'));
  });

  it('is silent without DEBUG', async () => {
    const server = await startCaptureServer();
    delete process.env.DEBUG;
    const out = await captureStderr(async () => {
      const analytics = new Analytics('wk', { endpoint: server.url });
      analytics.track({ userId: 'u1', event: 'A' });
      await analytics.close();
    });
    await server.close();
    expect(out).toBe('');
  });
});
