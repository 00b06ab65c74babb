// The handler's context as adapters build it through `handle`: headers read case-insensitively (repeated ones
// joined), the adapter's extras (never over the receiver's own fields or the signal), a signal read late that
// is already aborted, the deadline counted from `receivedAt`, and no plan fields without a tracking plan.
import { describe, expect, it } from 'vitest';
import { DeadlineExceededError, createReceiver, fixtures, type HandlerContext } from '../src/index.js';
import { SECRET, hmac } from './helpers/receiver-server.js';

const text = JSON.stringify(fixtures.track);

describe('the handler context', () => {
  it('reads headers case-insensitively from a plain record, joining a repeated one', async () => {
    const seen: Array<string | undefined> = [];
    const r = createReceiver({
      secret: SECRET,
      dedupe: false,
      onMessage: (_m, ctx) => void seen.push(ctx.header('x-trace'), ctx.header('X-Forwarded-For'), ctx.header('nope')),
    });
    const a = await r.handle({
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'X-Signature': hmac(text),
        'X-Trace': 't-1',
        'x-forwarded-for': ['10.0.0.1', '10.0.0.2'],
      },
      rawBody: text,
    });
    expect(a.status).toBe(200);
    expect(seen).toEqual(['t-1', '10.0.0.1, 10.0.0.2', undefined]);
  });

  it("carries the adapter's extras, but never over its own fields or the signal", async () => {
    let ctx: HandlerContext<{ req: string; dedupeKey: string; signal: string }> | undefined;
    const r = createReceiver<{ req: string; dedupeKey: string; signal: string }>({
      secret: SECRET,
      onMessage: (_m, c) => void (ctx = c),
    });
    await r.handle({
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-signature': hmac(text) },
      rawBody: text,
      context: { req: 'the request', dedupeKey: 'spoofed', signal: 'not a signal' },
    });
    expect(ctx?.req).toBe('the request');
    expect(ctx?.dedupeKey).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(ctx?.signal).toBeInstanceOf(AbortSignal);
    expect(ctx?.violations).toEqual([]);
    expect(ctx?.planned).toBe(false);
  });

  it('a signal first read after the deadline is already aborted with DeadlineExceededError', async () => {
    let late: AbortSignal | undefined;
    const r = createReceiver({
      secret: SECRET,
      deadlineMs: 100,
      onMessage: async (_m, ctx) => {
        await new Promise((resolve) => setTimeout(resolve, 250));
        late = ctx.signal;
      },
    });
    const a = await r.handle({
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-signature': hmac(text) },
      rawBody: text,
    });
    expect(a.status).toBe(503);
    await r.drain();
    expect(late?.aborted).toBe(true);
    expect(late?.reason).toBeInstanceOf(DeadlineExceededError);
    expect((late!.reason as DeadlineExceededError).deadlineMs).toBe(100);
  });

  it('the deadline counts from receivedAt, not from when handle was called', async () => {
    const r = createReceiver({
      secret: SECRET,
      deadlineMs: 4000,
      // Holds until the answer is in: the 503 cannot have waited for the handler.
      onMessage: () => handlerHeld,
    });
    let release!: () => void;
    const handlerHeld = new Promise<void>((resolve) => (release = resolve));
    const started = performance.now();
    const a = await r.handle({
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-signature': hmac(text) },
      rawBody: text,
      receivedAt: Date.now() - 3900,
    });
    expect(a.status).toBe(503);
    // About 100 ms from receivedAt's deadline; 4000 ms had it counted from the call. The bound leaves 3 s for a
    // busy machine.
    expect(performance.now() - started).toBeLessThan(3000);
    release();
    await r.drain();
  });
});
