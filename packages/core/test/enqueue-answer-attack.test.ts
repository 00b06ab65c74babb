// Attacks on enqueue mode's answers: the node listener writes one shared "Stored in the queue." answer
// (headers made once), every other caller (handle, fetch, accept + run, the adapters, a wrapped
// receiver) gets its own copy; the messageId key is made without waiting. Real HTTP on 127.0.0.1.
import type http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { createAdaptorServer } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { hookgate as expressHookgate } from '@hookgate/express';
import { hookgate as fastifyHookgate } from '@hookgate/fastify';
import { hookgate as honoHookgate } from '@hookgate/hono';
import { listenOnLoopback, startHttpServer, type TestListener } from '../../../test/helpers/servers.js';
import {
  createReceiver,
  fixture,
  toNodeListener,
  type EnqueueHandoff,
  type Receiver,
  type ReceiverResponse,
} from '../src/index.js';
import { SECRET, gate, hmac, send } from './helpers/receiver-server.js';

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});
async function serve(listener: TestListener) {
  const server = await startHttpServer(listener);
  closers.push(() => server.close());
  return server;
}
const JSON_TYPE = 'application/json; charset=utf-8';
const STORED_BODY = JSON.stringify({ ok: true, code: 'ok', message: 'Stored in the queue.', queued: true });
const input = (text: string) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', 'x-signature': hmac(text) },
  rawBody: Buffer.from(text),
});
const track = (messageId?: unknown) => {
  const message: Record<string, unknown> = { ...fixture('track') };
  if (messageId === undefined) delete message.messageId;
  else message.messageId = messageId;
  return JSON.stringify(message);
};
/** Changes every part of an answer a caller could change. */
function spoil(answer: ReceiverResponse): void {
  answer.headers['x-spoiled'] = 'yes';
  answer.headers['content-type'] = 'text/plain';
  (answer as { status: number }).status = 418;
  (answer as { body: string }).body = 'spoiled';
}
/** The listener's answer is still the right one on the wire. */
async function expectStoredOnWire(url: string, text: string): Promise<void> {
  const a = await send(url, text);
  expect([a.status, a.text]).toEqual([200, STORED_BODY]);
  expect(a.headers.get('content-type')).toBe(JSON_TYPE);
  expect(a.headers.get('content-length')).toBe(String(Buffer.byteLength(STORED_BODY)));
  expect(a.headers.get('x-spoiled')).toBeNull();
}

describe('the shared "Stored in the queue." answer reaches only the node listener', () => {
  it("answers of handle and of a receiver made from it can be changed without changing the listener's", async () => {
    const receiver = createReceiver({ secret: SECRET, enqueue: () => undefined });
    const direct = await serve(toNodeListener(receiver));
    // An object made from the receiver inherits its node entry: still only the listener sees the shared answer.
    const inherited = await serve(toNodeListener(Object.create(receiver) as Receiver));

    for (const text of [track('m-1'), track(undefined), track(7)]) {
      const own = await receiver.handle(input(text));
      expect([own.status, own.body, own.headers]).toEqual([200, STORED_BODY, { 'content-type': JSON_TYPE }]);
      spoil(own);
      await expectStoredOnWire(direct.url, text);
      await expectStoredOnWire(inherited.url, text);
      const again = await receiver.handle(input(text));
      expect([again.status, again.body, again.headers]).toEqual([200, STORED_BODY, { 'content-type': JSON_TYPE }]);
      expect(again).not.toBe(own);
    }
  });

  it('a server that sets headers on the response before the listener does not change the shared headers', async () => {
    const receiver = createReceiver({ secret: SECRET, enqueue: () => undefined });
    const listener = toNodeListener(receiver);
    let n = 0;
    const server = await serve((req, res) => {
      if (n++ === 0) res.setHeader('x-first-only', 'yes');
      void listener(req, res);
    });
    const first = await send(server.url, track('h-1'));
    expect(first.headers.get('x-first-only')).toBe('yes');
    for (let i = 0; i < 3; i++) {
      const a = await send(server.url, track(`h-${i + 2}`));
      expect(a.headers.get('x-first-only')).toBeNull();
      expect([a.status, a.text]).toEqual([200, STORED_BODY]);
    }
  });

  it('fetch, express, fastify and hono answer the same after their answers were read', async () => {
    const options = { secret: SECRET, enqueue: (() => undefined) as EnqueueHandoff };
    const fetchReceiver = createReceiver(options);
    const app = express();
    app.post('/', expressHookgate(options));
    const viaExpress = await serve(app);
    const fastify = Fastify();
    await fastify.register(fastifyHookgate, { ...options, path: '/' });
    await fastify.listen({ host: '127.0.0.1', port: 0 });
    closers.push(() => fastify.close());
    const hono = new Hono();
    hono.post('/', honoHookgate(options));
    const viaHono = await listenOnLoopback(
      createAdaptorServer({ fetch: hono.fetch, hostname: '127.0.0.1' }) as http.Server,
    );
    closers.push(() => viaHono.close());
    const urls = [viaExpress.url, `http://127.0.0.1:${(fastify.server.address() as AddressInfo).port}`, viaHono.url];
    for (const text of [track('f-1'), track(undefined)]) {
      const res = await fetchReceiver.fetch(new Request('http://x/', { ...input(text), body: text }));
      expect([res.status, await res.text(), res.headers.get('content-type')]).toEqual([200, STORED_BODY, JSON_TYPE]);
      res.headers.set('x-spoiled', 'yes');
      for (const url of urls) await expectStoredOnWire(url, text);
    }
  });
});

describe('enqueue mode answers', () => {
  it('with a dedupe store given: the second delivery is a duplicate, and the answers are objects of their own', async () => {
    const keys: string[] = [];
    const receiver = createReceiver({ secret: SECRET, dedupe: {}, enqueue: (h) => void keys.push(h.dedupeKey) });
    const server = await serve(toNodeListener(receiver));
    expect(await send(server.url, track('d-1'))).toMatchObject({ status: 200, json: { code: 'ok', queued: true } });
    expect(await send(server.url, track('d-1'))).toMatchObject({ status: 200, json: { code: 'duplicate' } });
    const own = await receiver.handle(input(track('d-2')));
    expect(JSON.parse(own.body)).toMatchObject({ code: 'ok', queued: true });
    spoil(own);
    expect((await receiver.handle(input(track('d-2')))).body).toContain('"duplicate"');
    await expectStoredOnWire(server.url, track('d-3'));
    expect(keys).toEqual(['id:d-1', 'id:d-2', 'id:d-3']);
  });

  it('concurrent deliveries of one message: each reaches enqueue with the same key and is answered 200', async () => {
    const keys: string[] = [];
    const open = gate();
    const receiver = createReceiver({
      secret: SECRET,
      enqueue: async (h) => {
        keys.push(h.dedupeKey);
        await open.promise;
      },
    });
    const server = await serve(toNodeListener(receiver));
    const all = Array.from({ length: 8 }, () => send(server.url, track('same')));
    await expect.poll(() => keys.length).toBe(8);
    open.open();
    for (const a of await Promise.all(all)) expect([a.status, a.text]).toEqual([200, STORED_BODY]);
    expect(new Set(keys)).toEqual(new Set(['id:same']));
  });

  it('message ids: text of 1 to 512 characters is the key as given, anything else a digest of the body', async () => {
    const keys: string[] = [];
    const receiver = createReceiver({ secret: SECRET, enqueue: (h) => void keys.push(h.dedupeKey) });
    const server = await serve(toNodeListener(receiver));
    const asGiven = ['%3A', '%25', ':', '%', 'é漢😀', ':%'.repeat(256)];
    for (const id of asGiven) expect((await send(server.url, track(id))).status).toBe(200);
    expect(keys).toEqual(asGiven.map((id) => `id:${id}`));
    keys.length = 0;
    // A lone surrogate would be stored as U+FFFD by Redis: two such ids would share one key there.
    const digested = ['', 'y'.repeat(513), 12, null, { a: 1 }, 'lone-\ud800', 'lone-\udfff'];
    for (const id of digested) expect((await send(server.url, track(id))).status).toBe(200);
    expect(keys).toHaveLength(digested.length);
    for (const key of keys) expect(key).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(new Set(keys).size).toBe(digested.length);
  });

  it('handle answers with a rejected promise, never a synchronous throw, when the body cannot be serialized for its key', async () => {
    const receiver = createReceiver({
      insecureSkipVerification: true,
      logger: { warn: () => {}, debug: () => {} },
      enqueue: () => undefined,
    });
    const { messageId: _drop, ...noId } = fixture('track') as Record<string, unknown>;
    const parsedBody = { ...noId, properties: { big: 10n } };
    let answer: Promise<ReceiverResponse> | undefined;
    expect(() => {
      answer = receiver.handle({ method: 'POST', headers: { 'content-type': 'application/json' }, parsedBody });
    }).not.toThrow();
    await expect(answer).rejects.toThrow(/BigInt/);
  });
});
