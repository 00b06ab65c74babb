// toNodeListener / readNodeBody / readBody / writeNodeResponse over real node:http: multibyte characters
// split across chunks, the default 1 MiB limit, 413 answered (not reset) over keep-alive, aborted uploads.
import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { fixtures } from '../src/index.js';
import { BodyTooLargeError, readBody, writeNodeResponse, receiverResponse } from '../src/adapter.js';
import { DEFAULT_MAX_BODY_BYTES } from '../src/internal.js';
import {
  SECRET,
  delay,
  hmac,
  send,
  sendChunks,
  serveReceiver,
  type ServedReceiver,
} from './helpers/receiver-server.js';

let srv: ServedReceiver | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

describe('toNodeListener', () => {
  it('joins chunks as bytes: a multibyte character split across chunks survives, and the raw bytes verify', async () => {
    const seen: Array<{ note: unknown; form: string }> = [];
    srv = await serveReceiver({
      secret: SECRET,
      on: { track: (m, ctx) => void seen.push({ note: m.properties?.note, form: ctx.verification.form }) },
    });
    const note = 'café ☕ — 日本 🎉';
    const bytes = Buffer.from(JSON.stringify({ ...fixtures.track, properties: { note } }), 'utf8');
    const at = bytes.indexOf(Buffer.from('日', 'utf8')) + 1; // inside the 3-byte character
    const emoji = bytes.indexOf(Buffer.from('🎉', 'utf8')) + 2; // inside the 4-byte one
    const chunks = [bytes.subarray(0, at), bytes.subarray(at, emoji), bytes.subarray(emoji)];
    const a = await sendChunks(srv.url, chunks, { 'content-type': 'application/json', 'x-signature': hmac(bytes) }, 20);
    expect(a.status).toBe(200);
    expect(seen).toEqual([{ note, form: 'raw' }]);
  });

  it('defaults to a 1 MiB limit: 1 MiB passes, one byte more is 413 (answered at once, the rest drained, the connection kept)', async () => {
    srv = await serveReceiver({ secret: SECRET, onMessage: () => {} });
    expect(srv.receiver.maxBodyBytes).toBe(DEFAULT_MAX_BODY_BYTES);
    const base = JSON.stringify({ ...fixtures.track, pad: '' });
    const exact = base.replace('"pad":""', `"pad":"${'p'.repeat(DEFAULT_MAX_BODY_BYTES - Buffer.byteLength(base))}"`);
    expect(Buffer.byteLength(exact)).toBe(DEFAULT_MAX_BODY_BYTES);
    expect((await send(srv.url, exact)).status).toBe(200);
    const over = exact.replace('"pad":"', '"pad":"q');
    const a = await send(srv.url, over);
    expect(a.status).toBe(413);
    // The rest of the body is read and dropped, so the connection stays usable (no Connection: close).
    expect(a.headers.get('connection')).not.toBe('close');
    expect(a.json.code).toBe('payload_too_large');
  });

  it('answers 413 to a large chunked upload on a keep-alive agent, then serves the next request', async () => {
    srv = await serveReceiver({ secret: SECRET, maxBodyBytes: 16 * 1024, onMessage: () => {} });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const post = (chunks: string[]) =>
        new Promise<number>((resolve, reject) => {
          const req = http.request(
            srv!.url,
            { method: 'POST', agent, headers: { 'content-type': 'application/json', 'x-signature': 'a'.repeat(40) } },
            (res) => {
              res.resume();
              res.on('end', () => resolve(res.statusCode ?? 0));
            },
          );
          req.on('error', reject);
          for (const c of chunks) req.write(c);
          req.end();
        });
      expect(await post(Array.from({ length: 80 }, () => 'x'.repeat(64 * 1024)))).toBe(413); // 5 MiB
      const ok = await send(srv.url, fixtures.track);
      expect(ok.status).toBe(200);
    } finally {
      agent.destroy();
    }
  });

  it('survives a client that gives up mid-body', async () => {
    srv = await serveReceiver({ secret: SECRET, onMessage: () => {} });
    await new Promise<void>((resolve) => {
      const req = http.request(srv!.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': '1000' },
      });
      req.on('error', () => resolve());
      req.write('{"type":"tr');
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 30);
    });
    await delay(30);
    expect((await send(srv.url, fixtures.track)).status).toBe(200);
  });

  it('writes Content-Length in bytes, for answers with non-ASCII text', async () => {
    srv = await serveReceiver({ secret: SECRET, onMessage: () => {} });
    const a = await send(srv.url, { ...fixtures.track, timestamp: 'jour férié ☕' });
    expect(a.status).toBe(400);
    expect(a.text).toContain('férié');
    expect(Number(a.headers.get('content-length'))).toBe(Buffer.byteLength(a.text));
  });
});

describe('readBody', () => {
  it('reads a Fetch stream, an async iterable of strings, and nothing', async () => {
    const enc = new TextEncoder();
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(enc.encode('{"a":'));
        c.enqueue(enc.encode('"é"}'));
        c.close();
      },
    });
    expect(new TextDecoder().decode(await readBody(stream, 100))).toBe('{"a":"é"}');
    async function* strings() {
      yield 'ab';
      yield 'ç';
    }
    expect(new TextDecoder().decode(await readBody(strings(), 100))).toBe('abç');
    expect(await readBody(null, 10)).toEqual(new Uint8Array(0));
  });

  it('stops past the limit with BodyTooLargeError naming the limit', async () => {
    async function* endless() {
      for (;;) yield new Uint8Array(1000);
    }
    const error = await readBody(endless(), 4500).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BodyTooLargeError);
    expect((error as BodyTooLargeError).limit).toBe(4500);
    expect((error as Error).message).toContain('4500 bytes');
  });
});

describe('writeNodeResponse', () => {
  it('does nothing once headers are sent', () => {
    const calls: string[] = [];
    const res = { headersSent: true, writeHead: () => void calls.push('head'), end: () => void calls.push('end') };
    writeNodeResponse(res, receiverResponse('ok', 'Handled.'));
    expect(calls).toEqual([]);
  });
});
