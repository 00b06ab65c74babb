// Webhooks (Actions) requests say `Accept-Encoding: gzip,deflate` (as Segment's code does), so a
// receiver may answer compressed: the delivery client logs the answer body decoded (node:zlib),
// against real node:http receivers on 127.0.0.1.
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { EndpointAgents } from '../../src/delivery/endpoint-agents.js';
import { RESPONSE_BODY_LIMIT, sendAttempt, type AttemptResult } from '../../src/delivery/http-attempt.js';
import { createEmulator } from '../../src/index.js';

const open: Array<() => unknown> = [];
afterEach(async () => {
  for (const close of open.splice(0).reverse()) await close();
});

/** A receiver answering every request with `body` under `Content-Encoding: encoding`; counts connections. */
async function receiver(encoding: string, body: Buffer): Promise<{ url: string; connections: () => number }> {
  let connections = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': encoding });
      res.end(body);
    });
  });
  server.on('connection', () => connections++);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  open.push(
    () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, connections: () => connections };
}

function attempt(agents: EndpointAgents, url: string): Promise<AttemptResult> {
  return new Promise((resolve) =>
    sendAttempt(agents.target({ parsed: new URL(url), headers: {} }), Buffer.from('{}'), undefined, resolve),
  );
}

function agents(): EndpointAgents {
  const a = new EndpointAgents({}, 'Segment.io/1.0');
  open.push(() => a.destroy());
  return a;
}

const ANSWER = JSON.stringify({ ok: true, note: 'café ✓' });

describe('a compressed answer is logged decoded', () => {
  for (const [encoding, body] of [
    ['gzip', zlib.gzipSync(ANSWER)],
    ['x-gzip', zlib.gzipSync(ANSWER)],
    ['deflate', zlib.deflateSync(ANSWER)],
    ['deflate', zlib.deflateRawSync(ANSWER)],
    ['identity', Buffer.from(ANSWER)],
  ] as const) {
    it(`Content-Encoding: ${encoding} (${body[0] === 0x78 ? 'zlib-wrapped' : 'as sent'})`, async () => {
      const r = await receiver(encoding, body);
      const result = await attempt(agents(), r.url);
      expect(result.status).toBe(200);
      expect(result.error).toBeUndefined();
      expect(result.responseBody).toBe(ANSWER);
    });
  }

  it('an encoding it does not decode (br) is kept as it came', async () => {
    const body = zlib.brotliCompressSync(ANSWER);
    const r = await receiver('br', body);
    const result = await attempt(agents(), r.url);
    expect(result.responseBody).toBe(body.toString('utf8'));
  });

  it('a gzip answer that inflates to 50 MB is kept to its first 1 KB; the next attempt is answered too', async () => {
    const r = await receiver('gzip', zlib.gzipSync(Buffer.alloc(50 * 1024 * 1024, 'a')));
    const a = agents();
    const result = await attempt(a, r.url);
    expect(result.status).toBe(200);
    expect(result.responseBody).toBe('a'.repeat(RESPONSE_BODY_LIMIT));
    expect((await attempt(a, r.url)).status).toBe(200);
    expect(r.connections()).toBe(2); // a connection per request
  });

  it('a body that is not gzip under Content-Encoding: gzip: the status is kept, the body is what decoded (nothing)', async () => {
    const r = await receiver('gzip', Buffer.from('not gzip at all'));
    const result = await attempt(agents(), r.url);
    expect(result.status).toBe(200);
    expect(result.error).toBeUndefined();
    expect(result.responseBody).toBeUndefined();
  });

  it('a Webhooks (Actions) delivery records the gzip answer of its receiver decoded', async () => {
    const r = await receiver('gzip', zlib.gzipSync(ANSWER));
    const emulator = createEmulator({
      sources: [
        {
          writeKey: 'wk',
          webhooksActions: {
            subscriptions: [{ subscribe: 'type = "track"', partnerAction: 'send', mapping: { url: r.url } }],
          },
        },
      ],
    });
    emulator.track({ event: 'Order Completed', userId: 'u1' });
    await emulator.drain();
    const record = emulator.deliveries.find((d) => d.actions !== undefined && d.attempts.length > 0);
    await emulator.close();
    expect(record?.state).toBe('delivered');
    expect(record?.attempts[0]?.requestHeaders['Accept-Encoding']).toBe('gzip,deflate');
    expect(record?.attempts[0]?.responseBody).toBe(ANSWER);
  });
});
