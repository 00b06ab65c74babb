// core's node listener answers what `handle` answers: the same answers, a receiver wrapped with its
// own `handle` goes through it, and `handle`/`run` answer objects of their own.
import { afterEach, describe, expect, it } from 'vitest';
import { startHttpServer, type RunningServer } from '../../../test/helpers/servers.js';
import { createReceiver, fixture, fixtures, toNodeListener, type Receiver } from '../src/index.js';
import { SECRET, gate, hmac, send } from './helpers/receiver-server.js';

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(receiver: Receiver): Promise<RunningServer> {
  server = await startHttpServer(toNodeListener(receiver));
  return server;
}

describe('toNodeListener', () => {
  it('answers what handle answers: status, body and headers, for sync, async, throwing and unhandled handlers', async () => {
    const slow = gate();
    const options = {
      secret: SECRET,
      dedupe: false as const,
      on: {
        track: () => {},
        identify: async () => {
          await slow.promise;
        },
        page: () => {
          throw new Error('boom');
        },
      },
      onError: () => {},
    };
    const viaListener = await serve(createReceiver(options));
    const direct = createReceiver(options);
    slow.open();
    const cases = [
      fixtures.track,
      fixtures.identify,
      fixtures.page,
      fixtures.group,
      { ...fixtures.track, timestamp: 'nope' },
    ];
    for (const body of cases) {
      const text = JSON.stringify(body);
      const a = await send(viaListener.url, text);
      const h = await direct.handle({
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-signature': hmac(text) },
        rawBody: Buffer.from(text),
      });
      expect(a.status).toBe(h.status);
      expect(a.text).toBe(h.body);
      expect(a.headers.get('content-type')).toBe(h.headers['content-type']);
      expect(Number(a.headers.get('content-length'))).toBe(Buffer.byteLength(h.body));
    }
    expect((await send(viaListener.url, fixtures.track, { signature: 'ab'.repeat(20) })).status).toBe(401);
    expect((await send(viaListener.url, fixtures.track, { contentType: 'text/plain' })).status).toBe(415);
    expect((await send(viaListener.url, fixtures.track, { method: 'PUT' })).status).toBe(405);
  });

  it('a copy of the receiver with its own serve goes through that serve (the listener is an adapter on it)', async () => {
    const inner = createReceiver({ secret: SECRET, dedupe: false, onMessage: () => {} });
    let served = 0;
    const wrapped: Receiver = {
      ...inner,
      serve: (adapter, passThrough) => {
        const serveInner = inner.serve(adapter, passThrough);
        return (call) => {
          served += 1;
          return serveInner(call);
        };
      },
    };
    const srv = await serve(wrapped);
    expect((await send(srv.url, fixtures.track)).status).toBe(200);
    expect((await send(srv.url, fixtures.track, { method: 'PUT' })).status).toBe(405);
    expect(served).toBe(2);
  });

  it('handle and run answer "Handled." in objects of their own (changing one changes no other answer)', async () => {
    const receiver = createReceiver({ secret: SECRET, dedupe: false, onMessage: () => {} });
    const text = JSON.stringify(fixtures.track);
    const input = {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-signature': hmac(text) },
      rawBody: Buffer.from(text),
    };
    const first = await receiver.handle(input);
    first.headers['x-changed'] = 'yes';
    const second = await receiver.handle(input);
    expect(second).not.toBe(first);
    expect(second.headers).toEqual({ 'content-type': 'application/json; charset=utf-8' });
    const accepted = await receiver.accept(input);
    if (accepted.kind !== 'message') throw new Error('expected a message');
    const ran = await receiver.run(accepted, () => {});
    expect(ran.headers).toEqual({ 'content-type': 'application/json; charset=utf-8' });
    const srv = await serve(receiver);
    const a = await send(srv.url, text);
    expect(a.status).toBe(200);
    expect(a.headers.get('x-changed')).toBeNull();
  });

  it('enqueue mode: "Stored in the queue." by the listener as handle answers it, and handle answers objects of its own', async () => {
    const stored: string[] = [];
    const receiver = createReceiver({ secret: SECRET, enqueue: (handoff) => void stored.push(handoff.dedupeKey) });
    const text = JSON.stringify(fixture('track', { messageId: 'm-stored-1' }));
    const input = {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-signature': hmac(text) },
      rawBody: Buffer.from(text),
    };
    const first = await receiver.handle(input);
    expect(JSON.parse(first.body)).toEqual({ ok: true, code: 'ok', message: 'Stored in the queue.', queued: true });
    first.headers['x-changed'] = 'yes';
    const second = await receiver.handle(input);
    expect(second).not.toBe(first);
    expect(second.headers).toEqual({ 'content-type': 'application/json; charset=utf-8' });
    const srv = await serve(receiver);
    for (const body of [text, JSON.stringify(fixtures.track)]) {
      const a = await send(srv.url, body);
      expect([a.status, a.text]).toEqual([200, second.body]);
      expect(a.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(Number(a.headers.get('content-length'))).toBe(Buffer.byteLength(second.body));
      expect(a.headers.get('x-changed')).toBeNull();
    }
    // The message id's key, made without waiting; a message without one is keyed by the digest of its bytes.
    expect(stored.slice(0, 3)).toEqual(['id:m-stored-1', 'id:m-stored-1', 'id:m-stored-1']);
    expect(stored[3]).toMatch(/^sha256:[0-9a-f]{64}$/);
  });
});
