// The checks before the signature: method (405), Content-Type (415), declared and actual size (413), a body
// that took the whole deadline to arrive (503), no body at all (400): over real HTTP where the sender's
// requests can show them, else through `handle` as an adapter calls it (a string body, `receivedAt`).
import { afterEach, describe, expect, it } from 'vitest';
import { createAdapterHandler } from '../src/adapter.js';
import { createReceiver, fixtures } from '../src/index.js';
import { SECRET, hmac, send, serveReceiver, type ServedReceiver } from './helpers/receiver-server.js';

let srv: ServedReceiver | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

const text = JSON.stringify(fixtures.track);
const headers = (body: string) => ({ 'content-type': 'application/json', 'x-signature': hmac(body) });

describe('before the body is read', () => {
  it('405 names the method and allows POST', async () => {
    srv = await serveReceiver({ secret: SECRET, onMessage: () => {} });
    const a = await send(srv.url, text, { method: 'PUT' });
    expect(a.status).toBe(405);
    expect(a.headers.get('allow')).toBe('POST');
    expect(a.json).toEqual({
      ok: false,
      code: 'method_not_allowed',
      message: 'The sender only POSTs; PUT is not allowed.',
    });
  });

  it.each([
    ['application/json ;charset=utf-8', 200],
    ['application/problem+json', 200],
    ['application/json-seq', 415],
    ['text/json', 415],
    ['xapplication/json', 415],
  ])('Content-Type %s → %i', async (contentType, status) => {
    srv = await serveReceiver({ secret: SECRET, onMessage: () => {} });
    expect((await send(srv.url, text, { contentType })).status).toBe(status);
  });

  it('415 quotes the Content-Type given, or says there was none', async () => {
    srv = await serveReceiver({ secret: SECRET, onMessage: () => {} });
    expect((await send(srv.url, text, { contentType: 'text/plain' })).json).toEqual({
      ok: false,
      code: 'unsupported_media_type',
      message: 'Content-Type must be application/json; got "text/plain".',
    });
    // fetch always sends one for a text body: an adapter may see none.
    const none = srv.receiver.precheck('POST', {});
    expect(JSON.parse(none?.body ?? '{}').message).toBe('Content-Type must be application/json; got none.');
  });

  it('a declared Content-Length at the limit goes on, one above is 413 naming the limit', async () => {
    const r = createReceiver({ secret: SECRET, maxBodyBytes: 100, onMessage: () => {} });
    const at = r.precheck('POST', { 'content-type': 'application/json', 'content-length': '100' });
    expect(at).toBeUndefined();
    const over = r.precheck('POST', { 'content-type': 'application/json', 'content-length': '101' });
    expect([over?.status, JSON.parse(over?.body ?? '{}')]).toEqual([
      413,
      { ok: false, code: 'payload_too_large', message: 'The body is larger than the limit of 100 bytes.' },
    ]);
    expect(r.precheck('POST', { 'content-type': 'application/json', 'content-length': 'many' })).toBeUndefined();
  });
});

describe('the body as an adapter hands it over', () => {
  it('a string body is measured in UTF-8 bytes: at the limit it is handled, one byte over is 413', async () => {
    const body = JSON.stringify({ ...fixtures.track, properties: { note: '€€€' } });
    const limit = Buffer.byteLength(body);
    const r = createReceiver({ secret: SECRET, maxBodyBytes: limit, dedupe: false, onMessage: () => {} });
    expect((await r.handle({ method: 'POST', headers: headers(body), rawBody: body })).status).toBe(200);
    const longer = body.replace('€€€', '€€€a');
    const a = await r.handle({ method: 'POST', headers: headers(longer), rawBody: longer });
    expect([a.status, JSON.parse(a.body).message]).toEqual([
      413,
      `The body is larger than the limit of ${limit} bytes.`,
    ]);
    // Bytes are measured as bytes.
    const bytes = Buffer.from(longer);
    expect((await r.handle({ method: 'POST', headers: headers(longer), rawBody: bytes })).status).toBe(413);
  });

  it('no body at all → 400 invalid_json "The request has no body."', async () => {
    const r = createReceiver({ secret: SECRET, onMessage: () => {} });
    const a = await r.handle({ method: 'POST', headers: headers('') });
    expect([a.status, JSON.parse(a.body)]).toEqual([
      400,
      { ok: false, code: 'invalid_json', message: 'The request has no body.' },
    ]);
  });

  it('a request that took the whole deadline to arrive → 503 (the sender retries); just inside it is handled', async () => {
    let ran = 0;
    const r = createReceiver({ secret: SECRET, deadlineMs: 1000, dedupe: false, onMessage: () => void ran++ });
    const late = await r.handle({
      method: 'POST',
      headers: headers(text),
      rawBody: text,
      receivedAt: Date.now() - 1000,
    });
    expect([late.status, JSON.parse(late.body)]).toEqual([
      503,
      {
        ok: false,
        code: 'deadline_exceeded',
        message: 'The request took more than 1000 ms to arrive; the sender will retry.',
      },
    ]);
    expect(late.headers['retry-after']).toBe('5');
    expect(ran).toBe(0);
    const inTime = await r.handle({
      method: 'POST',
      headers: headers(text),
      rawBody: text,
      receivedAt: Date.now() - 900,
    });
    expect(inTime.status).toBe(200);
    expect(ran).toBe(1);
  });

  it('a body the framework parsed already is handed over as it is, even beside the raw bytes', async () => {
    const seen: unknown[] = [];
    const r = createReceiver({ secret: SECRET, dedupe: false, onMessage: (m) => void seen.push(m) });
    const parsedBody = JSON.parse(text) as unknown;
    const a = await r.handle({ method: 'POST', headers: headers(text), rawBody: text, parsedBody });
    expect(a.status).toBe(200);
    expect(seen[0]).toBe(parsedBody);
  });
});

describe('the precheck runs once per request, whatever the entry', () => {
  /** Headers that count how often each one is read. */
  function countingHeaders(body: string) {
    const reads: string[] = [];
    const all = new Headers(headers(body));
    return { reads, headers: { get: (name: string) => (reads.push(name.toLowerCase()), all.get(name)) } };
  }
  const contentTypeReads = (reads: string[]) => reads.filter((n) => n === 'content-type').length;

  it('through handle, and through an adapter (createAdapterHandler), Content-Type is read once', async () => {
    const receiver = createReceiver({ secret: SECRET, dedupe: false, onMessage: () => {} });
    const viaHandle = countingHeaders(text);
    expect((await receiver.handle({ method: 'POST', headers: viaHandle.headers, rawBody: text })).status).toBe(200);
    expect(contentTypeReads(viaHandle.reads)).toBe(1);

    const viaAdapter = countingHeaders(text);
    const serve = createAdapterHandler(
      receiver,
      {
        request: () => ({ method: 'POST', headers: viaAdapter.headers }),
        readBody: async () => ({ rawBody: text }),
        context: () => ({}),
        writeAnswer: (_call: undefined, answer) => answer.status,
      },
      false,
    );
    expect(await serve(undefined)).toBe(200);
    expect(contentTypeReads(viaAdapter.reads)).toBe(1);
  });
});
