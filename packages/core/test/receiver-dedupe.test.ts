// Dedupe of retried deliveries over a real node:http server: key = messageId, else a hash of the body;
// a key is stored only after the handler succeeded; a running claim answers 503 in_flight.
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryIdempotencyStore, fixtures, type ReceiverErrorInfo } from '../src/index.js';
import { DEFAULT_DEDUPE_TTL_MS, DEFAULT_IN_FLIGHT_TTL_MS, dedupeKey } from '../src/internal.js';
import { RecordingStore } from './helpers/recording-store.js';
import { SECRET, gate, hmac, send, serveReceiver, type ServedReceiver } from './helpers/receiver-server.js';

let srv: ServedReceiver | undefined;
afterEach(async () => {
  await srv?.receiver.drain();
  await srv?.close();
  srv = undefined;
});

const track = (id?: string, event = 'Order Completed') =>
  id === undefined ? { ...fixtures.track, event } : { ...fixtures.track, event, messageId: id };

describe('dedupe', () => {
  it('a duplicate answers 200 and does not run the handler again', async () => {
    let runs = 0;
    srv = await serveReceiver({ secret: SECRET, onMessage: () => void runs++ });
    const body = JSON.stringify(track('m1'));
    expect((await send(srv.url, body)).json.code).toBe('ok');
    const dup = await send(srv.url, body);
    expect(dup.status).toBe(200);
    expect(dup.json).toMatchObject({ ok: true, code: 'duplicate', duplicate: true });
    expect(runs).toBe(1);
  });

  it('keys on messageId when present: a different body with the same messageId is a duplicate', async () => {
    const keys: Array<string | undefined> = [];
    srv = await serveReceiver({ secret: SECRET, onMessage: (_m, ctx) => void keys.push(ctx.dedupeKey) });
    expect((await send(srv.url, track('same-id', 'A'))).json.code).toBe('ok');
    expect((await send(srv.url, track('same-id', 'B'))).json.code).toBe('duplicate');
    expect(keys).toEqual(['id:same-id']);
  });

  it('keys on a SHA-256 of the body bytes when there is no messageId', async () => {
    const keys: Array<string | undefined> = [];
    srv = await serveReceiver({ secret: SECRET, onMessage: (_m, ctx) => void keys.push(ctx.dedupeKey) });
    const a = JSON.stringify(track(undefined, 'A'));
    // Indented: the key is the digest of these bytes as signed, not of the message's JSON.stringify form.
    const b = JSON.stringify(track(undefined, 'B'), null, 2);
    expect((await send(srv.url, a)).json.code).toBe('ok');
    expect((await send(srv.url, b)).json.code).toBe('ok');
    expect((await send(srv.url, a)).json.code).toBe('duplicate');
    expect(keys).toEqual([
      `sha256:${createHash('sha256').update(a).digest('hex')}`,
      `sha256:${createHash('sha256').update(b).digest('hex')}`,
    ]);
  });

  it('dedupeKey() falls back to the body for an empty, non-string or oversized messageId', async () => {
    const body = '{"x":1}';
    const hash = `sha256:${createHash('sha256').update(body).digest('hex')}`;
    expect(await dedupeKey({ messageId: 'abc' }, body)).toBe('id:abc');
    expect(await dedupeKey({ messageId: '' }, body)).toBe(hash);
    expect(await dedupeKey({ messageId: 42 }, body)).toBe(hash);
    expect(await dedupeKey({ messageId: 'x'.repeat(513) }, body)).toBe(hash);
    expect(await dedupeKey(null, new TextEncoder().encode(body))).toBe(hash);
  });

  it('dedupeKey() keys by the messageId exactly when it is well-formed text (a lone surrogate falls back to the body)', async () => {
    const body = '{"x":1}';
    const hash = `sha256:${createHash('sha256').update(body).digest('hex')}`;
    const unit = fc.constantFrom('a', '😀', '\ud800', '\udbff', '\udc00', '\udfff', 'é');
    await fc.assert(
      fc.asyncProperty(
        fc.array(unit, { minLength: 1, maxLength: 8 }).map((parts) => parts.join('')),
        async (id) => {
          const wellFormed = (id as unknown as { isWellFormed(): boolean }).isWellFormed();
          expect(await dedupeKey({ messageId: id }, body)).toBe(wellFormed ? `id:${id}` : hash);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('a failed handler’s key is released: the sender’s retry runs the handler again', async () => {
    let runs = 0;
    srv = await serveReceiver({
      secret: SECRET,
      onError: () => {},
      onMessage: () => {
        runs++;
        if (runs === 1) throw new Error('transient');
      },
    });
    const body = JSON.stringify(track('retry-me'));
    expect((await send(srv.url, body)).status).toBe(500);
    expect((await send(srv.url, body)).json.code).toBe('ok');
    expect((await send(srv.url, body)).json.code).toBe('duplicate');
    expect(runs).toBe(2);
  });

  it('a claim held by a running handler answers 503 in_flight to a concurrent duplicate', async () => {
    const g = gate();
    const started = gate();
    let runs = 0;
    srv = await serveReceiver({
      secret: SECRET,
      onMessage: async () => {
        runs++;
        started.open();
        await g.promise;
      },
    });
    const body = JSON.stringify(track('concurrent'));
    const first = send(srv.url, body);
    await started.promise; // the first delivery holds the claim
    const second = await send(srv.url, body);
    expect(second.status).toBe(503);
    expect(second.json.code).toBe('in_flight');
    expect(second.headers.get('retry-after')).toBe('5');
    g.open();
    expect((await first).json.code).toBe('ok');
    expect(runs).toBe(1);
  });

  it('a handler finishing after the deadline marks its key done: the retry answers duplicate', async () => {
    const g = gate();
    let runs = 0;
    srv = await serveReceiver({
      secret: SECRET,
      // Long enough for a request to arrive on a loaded machine (a late arrival is refused before any claim).
      deadlineMs: 400,
      onMessage: async () => {
        runs++;
        await g.promise;
      },
    });
    const body = JSON.stringify(track('late'));
    expect((await send(srv.url, body)).json.code).toBe('deadline_exceeded');
    expect((await send(srv.url, body)).json.code).toBe('in_flight'); // still running
    g.open();
    await srv.receiver.drain();
    expect((await send(srv.url, body)).json.code).toBe('duplicate');
    expect(runs).toBe(1);
  });

  it('a handler failing after the deadline frees its key: the retry runs again', async () => {
    const g = gate();
    let runs = 0;
    srv = await serveReceiver({
      secret: SECRET,
      deadlineMs: 400,
      onError: () => {},
      onMessage: async () => {
        runs++;
        if (runs === 1) {
          await g.promise;
          throw new Error('late');
        }
      },
    });
    const body = JSON.stringify(track('late-fail'));
    expect((await send(srv.url, body)).json.code).toBe('deadline_exceeded');
    g.open();
    await srv.receiver.drain();
    expect((await send(srv.url, body)).json.code).toBe('ok');
    expect(runs).toBe(2);
  });

  it('an invalid or unverified request claims nothing', async () => {
    let runs = 0;
    srv = await serveReceiver({ secret: SECRET, onMessage: () => void runs++ });
    const body = JSON.stringify(track('unverified'));
    expect((await send(srv.url, body, { secret: 'wrong' })).status).toBe(401);
    expect((await send(srv.url, body)).json.code).toBe('ok');
    expect(runs).toBe(1);
  });

  it('with allowReserializedWithRawBody, re-encoded bytes are keyed by the form that was signed: the retry of the original is a duplicate', async () => {
    const keys: Array<string | undefined> = [];
    srv = await serveReceiver({
      secret: SECRET,
      allowReserializedWithRawBody: true,
      onMessage: (_m, ctx) => void keys.push(ctx.dedupeKey),
    });
    const signed = JSON.stringify(track(undefined, 'Re-encoded'));
    const reencoded = JSON.stringify(JSON.parse(signed), null, 2);
    expect((await send(srv.url, reencoded, { signature: hmac(signed) })).json.code).toBe('ok');
    expect((await send(srv.url, signed)).json.code).toBe('duplicate');
    expect(keys).toEqual([`sha256:${createHash('sha256').update(signed).digest('hex')}`]);
  });

  it('dedupe: false runs every delivery and gives no key', async () => {
    const keys: Array<string | undefined> = [];
    const errors: unknown[] = [];
    srv = await serveReceiver({
      secret: SECRET,
      dedupe: false,
      onError: (e) => void errors.push(e),
      onMessage: (_m, ctx) => void keys.push(ctx.dedupeKey),
    });
    const body = JSON.stringify(track('twice'));
    expect((await send(srv.url, body)).json.code).toBe('ok');
    expect((await send(srv.url, body)).json.code).toBe('ok');
    expect(keys).toEqual([undefined, undefined]);
    // Nothing to settle: no store error either.
    expect(errors).toEqual([]);
  });
});

describe('dedupe with a given store', () => {
  it('claims before the handler, completes with the TTL after success, releases after failure', async () => {
    const store = new RecordingStore();
    let fail = false;
    srv = await serveReceiver({
      secret: SECRET,
      dedupe: { store },
      onError: () => {},
      onMessage: () => {
        store.log.push('handler');
        if (fail) throw new Error('x');
      },
    });
    await send(srv.url, track('s1'));
    fail = true;
    await send(srv.url, track('s2'));
    expect(store.log).toEqual([
      `claim id:s1 ${DEFAULT_IN_FLIGHT_TTL_MS}`,
      'handler',
      `complete id:s1 ${DEFAULT_DEDUPE_TTL_MS}`,
      `claim id:s2 ${DEFAULT_IN_FLIGHT_TTL_MS}`,
      'handler',
      'release id:s2',
    ]);
    expect(DEFAULT_DEDUPE_TTL_MS).toBeGreaterThan(4 * 60 * 60 * 1000); // beyond the sender's 4 h of retries
  });

  it('passes the configured TTLs', async () => {
    const store = new RecordingStore();
    srv = await serveReceiver({
      secret: SECRET,
      dedupe: { store, ttlMs: 1234, inFlightTtlMs: 567 },
      onMessage: () => {},
    });
    await send(srv.url, track('ttl'));
    expect(store.log).toEqual(['claim id:ttl 567', 'complete id:ttl 1234']);
  });

  it('a store that fails answers 503 store_unavailable (the sender retries) and tells onError', async () => {
    const store = new RecordingStore();
    store.failClaim = () => true;
    const reported: ReceiverErrorInfo[] = [];
    let runs = 0;
    srv = await serveReceiver({
      secret: SECRET,
      dedupe: { store },
      onError: (_e, info) => void reported.push(info),
      onMessage: () => void runs++,
    });
    const a = await send(srv.url, track('down'));
    expect(a.status).toBe(503);
    expect(a.json.code).toBe('store_unavailable');
    expect(a.text).not.toContain('store down');
    expect(runs).toBe(0);
    expect(reported).toEqual([expect.objectContaining({ phase: 'store', dedupeKey: 'id:down' })]);
  });

  it('two receivers sharing one store (two instances) run a message once', async () => {
    const store = new MemoryIdempotencyStore();
    let runs = 0;
    const g = gate();
    const started = gate();
    const handler = async () => {
      runs++;
      started.open();
      await g.promise;
    };
    const a = await serveReceiver({ secret: SECRET, dedupe: { store }, onMessage: handler });
    const b = await serveReceiver({ secret: SECRET, dedupe: { store }, onMessage: handler });
    try {
      const body = JSON.stringify(track('shared'));
      const first = send(a.url, body);
      await started.promise;
      expect((await send(b.url, body)).json.code).toBe('in_flight');
      g.open();
      expect((await first).json.code).toBe('ok');
      expect((await send(b.url, body)).json.code).toBe('duplicate');
      expect(runs).toBe(1);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
