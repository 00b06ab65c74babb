// The 5 s budget: mode "handle then answer" (AbortSignal, 503 at the deadline) and mode
// "acknowledge then handle" (200 after verification, handler in the background, failures to onError),
// and drain() for shutdown. Over a real node:http server.
import { afterEach, describe, expect, it } from 'vitest';
import { DeadlineExceededError, extraFields, fixtures, type ReceiverErrorInfo } from '../src/index.js';
import { DEFAULT_DEADLINE_MS, SENDER_TIMEOUT_MS } from '../src/internal.js';
import { SECRET, delay, gate, send, serveReceiver, type ServedReceiver } from './helpers/receiver-server.js';

let srv: ServedReceiver | undefined;
afterEach(async () => {
  await srv?.receiver.drain();
  await srv?.close();
  srv = undefined;
});

const track = (id: string) => ({ ...fixtures.track, messageId: id });

describe('mode handle (default)', () => {
  it('answers 503 at the deadline and fires the handler’s AbortSignal with a DeadlineExceededError', async () => {
    let reason: unknown;
    let abortedAfterMs = 0;
    srv = await serveReceiver({
      secret: SECRET,
      deadlineMs: 150,
      on: {
        track: (_msg, { signal, receivedAt }) =>
          new Promise<void>((resolve) => {
            // The deadline counts from when the request reached the receiver, not from the handler's start.
            signal.addEventListener('abort', () => {
              reason = signal.reason;
              abortedAfterMs = Date.now() - receivedAt.getTime();
              resolve();
            });
          }),
      },
    });
    expect(srv.receiver.mode).toBe('handle');
    expect(srv.receiver.deadlineMs).toBe(150);
    const a = await send(srv.url, track('d1'));
    expect(a.status).toBe(503);
    expect(a.json.code).toBe('deadline_exceeded');
    expect(a.json.message).toContain('150 ms');
    expect(a.ms).toBeGreaterThanOrEqual(140);
    expect(a.ms).toBeLessThan(4000); // the handler only ends when aborted: this bound only catches a hang
    await srv.receiver.drain();
    expect(reason).toBeInstanceOf(DeadlineExceededError);
    expect((reason as DeadlineExceededError).deadlineMs).toBe(150);
    expect(abortedAfterMs).toBeGreaterThanOrEqual(140);
  });

  it('uses 4000 ms by default and answers before the sender’s 5 s (the real value, once)', async () => {
    expect(DEFAULT_DEADLINE_MS).toBe(4000);
    expect(SENDER_TIMEOUT_MS).toBe(5000);
    let aborted = false;
    srv = await serveReceiver({
      secret: SECRET,
      onMessage: (_m, { signal }) =>
        new Promise<void>((resolve) =>
          signal.addEventListener('abort', () => {
            aborted = true;
            resolve();
          }),
        ),
    });
    expect(srv.receiver.deadlineMs).toBe(4000);
    const a = await send(srv.url, track('d-default'));
    expect(a.status).toBe(503);
    expect(a.ms).toBeGreaterThanOrEqual(3950);
    expect(a.ms).toBeLessThan(5000);
    await srv.receiver.drain();
    expect(aborted).toBe(true);
  });

  it('a handler that ignores the signal keeps running after the 503; drain() waits for it; success is not an error', async () => {
    const g = gate();
    let done = false;
    const errors: unknown[] = [];
    srv = await serveReceiver({
      secret: SECRET,
      deadlineMs: 50,
      onError: (e) => void errors.push(e),
      onMessage: async () => {
        await g.promise;
        done = true;
      },
    });
    expect((await send(srv.url, track('d2'))).status).toBe(503);
    let drained = false;
    const draining = srv.receiver.drain().then(() => (drained = true));
    await delay(30);
    expect(drained).toBe(false);
    g.open();
    await draining;
    expect(done).toBe(true);
    expect(errors).toEqual([]);
  });

  it('a handler that fails after the deadline reports to onError (phase background)', async () => {
    const reported: Array<[unknown, ReceiverErrorInfo]> = [];
    srv = await serveReceiver({
      secret: SECRET,
      deadlineMs: 50,
      onError: (e, info) => void reported.push([e, info]),
      onMessage: async () => {
        await delay(120);
        throw new Error('late failure');
      },
    });
    expect((await send(srv.url, track('d3'))).status).toBe(503);
    await srv.receiver.drain();
    expect(reported).toHaveLength(1);
    expect((reported[0]![0] as Error).message).toBe('late failure');
    expect(reported[0]![1]).toMatchObject({ phase: 'background', dedupeKey: 'id:d3' });
  });

  it('a handler that finishes in time answers 200 and its signal never fires', async () => {
    let signal: AbortSignal | undefined;
    srv = await serveReceiver({ secret: SECRET, deadlineMs: 100, onMessage: (_m, ctx) => void (signal = ctx.signal) });
    expect((await send(srv.url, track('d4'))).status).toBe(200);
    await delay(150);
    expect(signal!.aborted).toBe(false);
  });
});

describe('mode acknowledge', () => {
  it('answers 200 right after verification while the handler still runs', async () => {
    const g = gate();
    let finished = false;
    srv = await serveReceiver({
      secret: SECRET,
      mode: 'acknowledge',
      onMessage: async () => {
        await g.promise;
        finished = true;
      },
    });
    expect(srv.receiver.mode).toBe('acknowledge');
    const a = await send(srv.url, track('a1'));
    expect(a.status).toBe(200);
    expect(a.json).toMatchObject({ ok: true, code: 'ok', acknowledged: true });
    expect(finished).toBe(false);
    g.open();
    await srv.receiver.drain();
    expect(finished).toBe(true);
  });

  it('does not wait for a slow handler, even past the deadline', async () => {
    // The handler holds until after the answer has arrived: the 200 cannot have waited for it.
    const g = gate();
    let finished = false;
    srv = await serveReceiver({
      secret: SECRET,
      mode: 'acknowledge',
      deadlineMs: 50,
      onMessage: async () => {
        await g.promise;
        finished = true;
      },
    });
    const a = await send(srv.url, track('a2'));
    expect(a.status).toBe(200);
    expect(finished).toBe(false);
    g.open();
    await srv.receiver.drain();
    expect(finished).toBe(true);
  });

  it('reports a background failure to onError with the message (nothing is silently dropped)', async () => {
    const reported: Array<[unknown, ReceiverErrorInfo]> = [];
    srv = await serveReceiver({
      secret: SECRET,
      mode: 'acknowledge',
      onError: (e, info) => void reported.push([e, info]),
      on: {
        track: async (msg) => {
          await delay(20);
          throw new Error(`could not store ${msg.event}`);
        },
      },
    });
    expect((await send(srv.url, track('a3'))).status).toBe(200);
    await srv.receiver.drain();
    expect(reported).toHaveLength(1);
    expect((reported[0]![0] as Error).message).toBe('could not store Order Completed');
    expect(reported[0]![1]).toMatchObject({
      phase: 'background',
      dedupeKey: 'id:a3',
      message: { type: 'track', messageId: 'a3' },
    });
  });

  it('still verifies and validates before acknowledging', async () => {
    let runs = 0;
    srv = await serveReceiver({ secret: SECRET, mode: 'acknowledge', onMessage: () => void runs++ });
    expect((await send(srv.url, track('a4'), { secret: 'wrong' })).status).toBe(401);
    expect((await send(srv.url, { type: 'track' })).status).toBe(400);
    await srv.receiver.drain();
    expect(runs).toBe(0);
  });

  it('drain() at shutdown waits for every acknowledged message', async () => {
    const done: string[] = [];
    srv = await serveReceiver({
      secret: SECRET,
      mode: 'acknowledge',
      onMessage: async (m) => {
        await delay(300);
        done.push(String(extraFields(m).messageId));
      },
    });
    const ids = ['s1', 's2', 's3', 's4', 's5'];
    await Promise.all(ids.map((id) => send(srv!.url, track(id))));
    expect(done.length).toBeLessThan(ids.length);
    await srv.receiver.drain();
    expect(done.sort()).toEqual(ids);
  });
});

it('drain() resolves at once when nothing runs', async () => {
  srv = await serveReceiver({ secret: SECRET, onMessage: () => {} });
  // Before the next turn of the event loop: no timer, no I/O in between.
  const first = await Promise.race([
    srv.receiver.drain().then(() => 'drained'),
    new Promise((resolve) => setImmediate(resolve, 'next turn')),
  ]);
  expect(first).toBe('drained');
});
