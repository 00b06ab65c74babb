// receiver.fetch(Request) → Response: called directly, and served over real HTTP through
// @hono/node-server's Request/Response bridge; the Web Crypto path (`crypto: 'web'`).
import { getRequestListener } from '@hono/node-server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startHttpServer, type RunningServer } from '../../../test/helpers/servers.js';
import { createReceiver, fixtures, type ReceiverOptions } from '../src/index.js';
import { SECRET, hmac, send, sendChunks } from './helpers/receiver-server.js';

const signed = (body: string, init: RequestInit & { headers?: Record<string, string> } = {}) =>
  new Request('http://receiver.test/hooks', {
    method: 'POST',
    body,
    ...init,
    headers: { 'content-type': 'application/json', 'x-signature': hmac(body), ...init.headers },
  });

/** A body stream that counts how many bytes the receiver pulled from it. */
function countingStream(totalBytes: number, chunkBytes = 16 * 1024) {
  const stats = { pulled: 0 };
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= totalBytes) return controller.close();
      const n = Math.min(chunkBytes, totalBytes - sent);
      sent += n;
      stats.pulled += n;
      controller.enqueue(new Uint8Array(n).fill(0x61));
    },
  });
  return { stream, stats };
}

describe('receiver.fetch, called directly', () => {
  const handled: unknown[] = [];
  const receiver = createReceiver({ secret: SECRET, maxBodyBytes: 64 * 1024, onMessage: (m) => void handled.push(m) });

  it('answers a signed message 200 with a JSON Response', async () => {
    const body = JSON.stringify({ ...fixtures.screen, messageId: 'f1' });
    const res = await receiver.fetch(signed(body));
    expect(res).toBeInstanceOf(Response);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await res.json()).toMatchObject({ ok: true, code: 'ok' });
    expect(handled).toContainEqual(JSON.parse(body));
  });

  it('is a plain function: works detached, as Bun.serve({ fetch: receiver.fetch }) calls it', async () => {
    const { fetch } = receiver;
    const res = await fetch(signed(JSON.stringify({ ...fixtures.page, messageId: 'f2' })));
    expect(res.status).toBe(200);
  });

  it('refuses method, content type and signature as the table says', async () => {
    expect((await receiver.fetch(new Request('http://r.test/', { method: 'GET' }))).status).toBe(405);
    expect((await receiver.fetch(signed('{}', { headers: { 'content-type': 'text/plain' } }))).status).toBe(415);
    expect(
      (await receiver.fetch(signed(JSON.stringify(fixtures.track), { headers: { 'x-signature': hmac('x') } }))).status,
    ).toBe(401);
    expect((await receiver.fetch(signed('{nope'))).status).toBe(400);
  });

  it('a body over the limit streamed without Content-Length → 413, reading little past the limit', async () => {
    const { stream, stats } = countingStream(10 * 1024 * 1024);
    const req = new Request('http://r.test/', {
      method: 'POST',
      body: stream,
      headers: { 'content-type': 'application/json', 'x-signature': 'a'.repeat(40) },
      duplex: 'half',
    } as RequestInit);
    expect(req.headers.get('content-length')).toBeNull();
    const res = await receiver.fetch(req);
    expect(res.status).toBe(413);
    expect((await res.json()).code).toBe('payload_too_large');
    expect(stats.pulled).toBeLessThan(64 * 1024 + 3 * 16 * 1024);
  });

  it('a declared Content-Length over the limit → 413 without reading the body', async () => {
    const { stream, stats } = countingStream(10 * 1024 * 1024);
    const req = new Request('http://r.test/', {
      method: 'POST',
      body: stream,
      headers: { 'content-type': 'application/json', 'content-length': String(10 * 1024 * 1024) },
      duplex: 'half',
    } as RequestInit);
    const res = await receiver.fetch(req);
    expect(res.status).toBe(413);
    expect(stats.pulled).toBeLessThanOrEqual(16 * 1024);
  });

  it('passes the adapter’s extra context to handlers', async () => {
    const seen: unknown[] = [];
    const r = createReceiver<{ env: { region: string } }>({
      secret: SECRET,
      onMessage: (_m, ctx) => void seen.push(ctx.env.region),
    });
    await r.fetch(signed(JSON.stringify(fixtures.group)), { env: { region: 'eu' } });
    expect(seen).toEqual(['eu']);
  });
});

describe("crypto: 'web'", () => {
  afterEach(() => vi.restoreAllMocks());

  it('verifies with Web Crypto (crypto.subtle), not node:crypto HMAC', async () => {
    const subtleSign = vi.spyOn(crypto.subtle, 'sign');
    const createHmac = vi.spyOn(process.getBuiltinModule('node:crypto'), 'createHmac');
    const receiver = createReceiver({ secret: ['rotated-out', SECRET], crypto: 'web', onMessage: () => {} });
    const body = JSON.stringify({ ...fixtures.identify, messageId: 'w1' });
    const ok = await receiver.fetch(signed(body));
    expect(ok.status).toBe(200);
    expect(subtleSign).toHaveBeenCalled();
    expect(createHmac).not.toHaveBeenCalled();
    const bad = await receiver.fetch(signed(body, { headers: { 'x-signature': hmac(body, 'other') } }));
    expect(bad.status).toBe(401);
  });

  it('imports each secret once per receiver, not per request (no module cache keyed by the secret)', async () => {
    const importKey = vi.spyOn(crypto.subtle, 'importKey');
    const receiver = createReceiver({
      secret: ['rotated-out', SECRET],
      crypto: 'web',
      dedupe: false,
      onMessage: () => {},
    });
    for (let i = 0; i < 3; i++) {
      const body = JSON.stringify({ ...fixtures.identify, messageId: `w-once-${i}` });
      expect((await receiver.fetch(signed(body))).status).toBe(200);
    }
    expect(importKey).toHaveBeenCalledTimes(2);
    // Another receiver with the same secrets imports its own keys: nothing is shared through a cache.
    const other = createReceiver({ secret: SECRET, crypto: 'web', onMessage: () => {} });
    expect((await other.fetch(signed(JSON.stringify({ ...fixtures.identify, messageId: 'w-other' })))).status).toBe(
      200,
    );
    expect(importKey).toHaveBeenCalledTimes(3);
  });

  it('refuses re-encoded raw bytes (pretty-printed body signed compact), unless allowReserializedWithRawBody', async () => {
    const pretty = JSON.stringify(fixtures.alias, null, 2);
    const headers = { 'x-signature': hmac(JSON.stringify(fixtures.alias)) };
    const strict = createReceiver({ secret: SECRET, crypto: 'web', onMessage: () => {} });
    expect((await strict.fetch(signed(pretty, { headers }))).status).toBe(401);
    const lenient = createReceiver({
      secret: SECRET,
      crypto: 'web',
      allowReserializedWithRawBody: true,
      onMessage: () => {},
    });
    expect((await lenient.fetch(signed(pretty, { headers }))).status).toBe(200);
  });
});

describe('receiver.fetch over real HTTP (@hono/node-server bridge)', () => {
  let server: RunningServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  async function serveFetch(options: ReceiverOptions) {
    const receiver = createReceiver(options);
    server = await startHttpServer(getRequestListener((req) => receiver.fetch(req)));
    return server;
  }

  it('handles a signed delivery', async () => {
    const seen: string[] = [];
    const s = await serveFetch({ secret: SECRET, on: { track: (m) => void seen.push(m.event) } });
    const a = await send(s.url, fixtures.track);
    expect(a.status).toBe(200);
    expect(seen).toEqual(['Order Completed']);
  });

  it('a chunked body over the limit → 413', async () => {
    const s = await serveFetch({ secret: SECRET, maxBodyBytes: 8 * 1024, onMessage: () => {} });
    const big = JSON.stringify({ ...fixtures.track, pad: 'x'.repeat(64 * 1024) });
    const chunks = Array.from({ length: 8 }, (_, i) => big.slice((i * big.length) / 8, ((i + 1) * big.length) / 8));
    const a = await sendChunks(s.url, chunks, { 'content-type': 'application/json', 'x-signature': hmac(big) });
    expect(a.status).toBe(413);
  });
});
