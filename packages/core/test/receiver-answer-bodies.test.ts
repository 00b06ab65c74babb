// The exact JSON answers of the status table, over real HTTP: what Segment's event delivery view shows the
// owner for each outcome (ok, acknowledged, unhandled, duplicate, in flight, store down, handler failed, the
// deadline), with the headers that go with them (Content-Type, Retry-After on every 503).
import { afterEach, describe, expect, it } from 'vitest';
import { fixtures, type IdempotencyStore } from '../src/index.js';
import { SECRET, gate, send, serveReceiver, type ServedReceiver } from './helpers/receiver-server.js';

let srv: ServedReceiver | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

const JSON_TYPE = 'application/json; charset=utf-8';
const track = (messageId: string) => JSON.stringify({ ...fixtures.track, messageId });

describe('the answers, word for word', () => {
  it('handled → 200 "Handled."; a retry → 200 duplicate', async () => {
    srv = await serveReceiver({ secret: SECRET, onMessage: () => {} });
    const a = await send(srv.url, track('b1'));
    expect([a.status, a.json]).toEqual([200, { ok: true, code: 'ok', message: 'Handled.' }]);
    expect(a.headers.get('content-type')).toBe(JSON_TYPE);
    expect(a.headers.get('retry-after')).toBeNull();
    const b = await send(srv.url, track('b1'));
    expect([b.status, b.json]).toEqual([
      200,
      { ok: true, code: 'duplicate', message: 'Already handled; not run again.', duplicate: true },
    ]);
  });

  it('acknowledge mode → 200 "Verified; handling in the background."', async () => {
    srv = await serveReceiver({ secret: SECRET, mode: 'acknowledge', onMessage: () => {} });
    const a = await send(srv.url, track('b2'));
    expect(a.json).toEqual({
      ok: true,
      code: 'ok',
      message: 'Verified; handling in the background.',
      acknowledged: true,
    });
    await srv.receiver.drain();
  });

  it('no handler for the type → 200 unhandled, naming the type', async () => {
    srv = await serveReceiver({ secret: SECRET, on: { identify: () => {} } });
    const a = await send(srv.url, track('b3'));
    expect([a.status, a.json]).toEqual([
      200,
      { ok: true, code: 'unhandled', message: 'No handler for track messages; acknowledged.', handled: false },
    ]);
  });

  it('a handler that throws → 500 "The handler failed; the sender will retry." without the error text', async () => {
    srv = await serveReceiver({
      secret: SECRET,
      onError: () => {},
      onMessage: () => {
        throw new Error('database password is hunter2');
      },
    });
    const a = await send(srv.url, track('b4'));
    expect([a.status, a.json]).toEqual([
      500,
      { ok: false, code: 'handler_error', message: 'The handler failed; the sender will retry.' },
    ]);
    expect(a.headers.get('retry-after')).toBeNull();
  });

  it('a handler past the deadline → 503 naming the deadline, Retry-After: 5', async () => {
    const g = gate();
    srv = await serveReceiver({ secret: SECRET, deadlineMs: 150, onMessage: () => g.promise });
    const a = await send(srv.url, track('b5'));
    g.open();
    expect([a.status, a.json]).toEqual([
      503,
      {
        ok: false,
        code: 'deadline_exceeded',
        message: 'The handler did not finish within 150 ms; the sender will retry.',
      },
    ]);
    expect(a.headers.get('retry-after')).toBe('5');
    await srv.receiver.drain();
  });

  it('the same message being handled → 503 in_flight; a store that fails → 503 store_unavailable', async () => {
    const g = gate();
    const started = gate();
    srv = await serveReceiver({
      secret: SECRET,
      onMessage: async () => {
        started.open();
        await g.promise;
      },
    });
    const first = send(srv.url, track('b6'));
    await started.promise;
    const second = await send(srv.url, track('b6'));
    g.open();
    await first;
    expect([second.status, second.json]).toEqual([
      503,
      {
        ok: false,
        code: 'in_flight',
        message: 'The same message is being handled right now; the sender will retry.',
      },
    ]);
    expect(second.headers.get('retry-after')).toBe('5');
    await srv.close();

    const down: IdempotencyStore = {
      claim: () => Promise.reject(new Error('down')),
      complete: () => undefined,
      release: () => undefined,
    };
    srv = await serveReceiver({ secret: SECRET, dedupe: { store: down }, onError: () => {}, onMessage: () => {} });
    const c = await send(srv.url, track('b7'));
    expect([c.status, c.json]).toEqual([
      503,
      { ok: false, code: 'store_unavailable', message: 'The dedupe store is unavailable; the sender will retry.' },
    ]);
  });

  it('a store that fails to record the outcome: the answer stands, onError hears of it (phase store)', async () => {
    const reported: Array<{ phase: string; dedupeKey?: string; type?: string }> = [];
    const store: IdempotencyStore = {
      claim: () => 'claimed',
      complete: () => Promise.reject(new Error('complete failed')),
      release: () => Promise.reject(new Error('release failed')),
    };
    srv = await serveReceiver({
      secret: SECRET,
      dedupe: { store },
      onError: (error, info) =>
        void reported.push({ phase: info.phase, dedupeKey: info.dedupeKey, type: (error as Error).message }),
      onMessage: (msg) => {
        if (msg.type === 'track' && msg.event === 'Fail') throw new Error('handler failed');
      },
    });
    expect((await send(srv.url, track('b8'))).json.code).toBe('ok');
    const failing = JSON.stringify({ ...fixtures.track, event: 'Fail', messageId: 'b9' });
    expect((await send(srv.url, failing)).json.code).toBe('handler_error');
    expect(reported).toEqual([
      { phase: 'store', dedupeKey: 'id:b8', type: 'complete failed' },
      { phase: 'store', dedupeKey: 'id:b9', type: 'release failed' },
      { phase: 'handler', dedupeKey: 'id:b9', type: 'handler failed' },
    ]);
  });

  it('no X-Signature, or an empty one → 401 missing_signature "The X-Signature header is missing; …"', async () => {
    srv = await serveReceiver({ secret: SECRET, logger: false, onMessage: () => {} });
    const expected = {
      ok: false,
      code: 'missing_signature',
      message: 'The X-Signature header is missing; the request is not signed.',
    };
    const none = await send(srv.url, track('b10'), { secret: null });
    expect([none.status, none.json]).toEqual([401, expected]);
    const empty = await send(srv.url, track('b10'), { signature: '' });
    expect([empty.status, empty.json]).toEqual([401, expected]);
  });
});
