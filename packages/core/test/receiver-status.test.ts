// DESIGN.md's status table, row by row, over a real node:http server driving the receiver.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECEIVER_CODES, fixtures } from '../src/index.js';
import {
  SECRET,
  hmac,
  send,
  sendChunks,
  serveReceiver,
  type Answer,
  type ServedReceiver,
} from './helpers/receiver-server.js';

let srv: ServedReceiver;
const handled: unknown[] = [];
const errors: unknown[] = [];

beforeAll(async () => {
  srv = await serveReceiver({
    secret: SECRET,
    maxBodyBytes: 64 * 1024,
    deadlineMs: 300,
    logger: { warn: () => {} },
    onError: (e) => errors.push(e),
    onMessage: async (msg) => {
      if (msg.type === 'track' && msg.event === 'Throw') throw new Error('boom');
      if (msg.type === 'track' && msg.event === 'Slow') await new Promise((r) => setTimeout(r, 1000));
      handled.push(msg);
    },
  });
});
afterAll(async () => {
  await srv.receiver.drain();
  await srv.close();
});

/** Every answer is JSON with a stable code and a readable message, and no stack trace. */
function expectAnswer(a: Answer, status: number, code: string) {
  expect(a.status).toBe(status);
  expect(a.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(a.json.code).toBe(code);
  expect(RECEIVER_CODES[code as keyof typeof RECEIVER_CODES]).toBe(status);
  expect(a.json.ok).toBe(status < 300);
  expect(typeof a.json.message).toBe('string');
  expect((a.json.message as string).length).toBeGreaterThan(4);
  expect(a.text).not.toMatch(/\n\s+at |\.ts:\d+|node:internal/);
}

const msg = (event: string, extra: Record<string, unknown> = {}) => ({
  ...fixtures.track,
  event,
  messageId: `m-${event}-${Math.random()}`,
  ...extra,
});

describe('the status table', () => {
  it('verified and handled → 200 with a JSON body; the handler got the message', async () => {
    const body = msg('Order Completed');
    const a = await send(srv.url, body);
    expectAnswer(a, 200, 'ok');
    expect(handled).toContainEqual(body);
  });

  it('every message type is accepted', async () => {
    for (const m of Object.values(fixtures)) {
      const a = await send(srv.url, { ...m, messageId: `type-${m.type}` });
      expectAnswer(a, 200, 'ok');
    }
  });

  it('a duplicate of a handled message → 200, the handler not run again', async () => {
    const body = JSON.stringify(msg('Dup'));
    expectAnswer(await send(srv.url, body), 200, 'ok');
    const before = handled.length;
    const again = await send(srv.url, body);
    expectAnswer(again, 200, 'duplicate');
    expect(again.json.duplicate).toBe(true);
    expect(handled.length).toBe(before);
  });

  it('missing signature → 401 missing_signature', async () => {
    expectAnswer(await send(srv.url, msg('NoSig'), { secret: null }), 401, 'missing_signature');
  });

  it('wrong signature → 401 invalid_signature; a malformed one too', async () => {
    expectAnswer(await send(srv.url, msg('Wrong'), { secret: 'not-the-secret' }), 401, 'invalid_signature');
    expectAnswer(await send(srv.url, msg('Short'), { signature: 'abc' }), 401, 'invalid_signature');
    const body = JSON.stringify(msg('Tampered'));
    expectAnswer(
      await send(srv.url, body.replace('Tampered', 'Tampere!'), { signature: hmac(body) }),
      401,
      'invalid_signature',
    );
  });

  it('a repeated X-Signature header → 401 invalid_signature, even when one copy is right', async () => {
    const body = JSON.stringify(msg('Twice'));
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        srv.url,
        { method: 'POST', headers: { 'content-type': 'application/json', 'x-signature': [hmac(body), hmac(body)] } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
    expect(status).toBe(401);
  });

  it('the signature is checked before the body is looked at: unsigned garbage → 401, not 400', async () => {
    expectAnswer(await send(srv.url, 'not json', { secret: null }), 401, 'missing_signature');
    expectAnswer(await send(srv.url, 'not json', { secret: 'wrong' }), 401, 'invalid_signature');
  });

  it('signed body that is not JSON → 400 invalid_json', async () => {
    expectAnswer(await send(srv.url, '{"type":"track",'), 400, 'invalid_json');
    expectAnswer(await send(srv.url, ''), 400, 'invalid_json');
  });

  it('signed JSON that is not a valid message → 400 invalid_message, listing each issue with its path', async () => {
    const a = await send(srv.url, { type: 'track', version: 1, userId: 7 });
    expectAnswer(a, 400, 'invalid_message');
    const issues = a.json.issues as Array<{ path: string; message: string }>;
    expect(issues.map((i) => i.path).sort()).toEqual(['$.event', '$.timestamp', '$.userId']);
    expect(a.json.message).toContain('$.userId');
    expectAnswer(await send(srv.url, { ...fixtures.alias, userId: 'u' }), 400, 'invalid_message');
    expectAnswer(await send(srv.url, [1, 2]), 400, 'invalid_message');
  });

  it('body over the limit, with a Content-Length → 413', async () => {
    const big = JSON.stringify(msg('Big', { pad: 'x'.repeat(70 * 1024) }));
    expectAnswer(await send(srv.url, big), 413, 'payload_too_large');
  });

  it('body over the limit, chunked without a Content-Length → 413, and the server stays up', async () => {
    const big = JSON.stringify(msg('BigChunked', { pad: 'x'.repeat(200 * 1024) }));
    const chunks = Array.from({ length: 10 }, (_, i) => big.slice((i * big.length) / 10, ((i + 1) * big.length) / 10));
    const a = await sendChunks(srv.url, chunks, { 'content-type': 'application/json', 'x-signature': hmac(big) });
    expect(a.status).toBe(413);
    expect(JSON.parse(a.text).code).toBe('payload_too_large');
    expectAnswer(await send(srv.url, msg('AfterBig')), 200, 'ok');
  });

  it('a body exactly at the limit is accepted', async () => {
    const base = JSON.stringify(msg('Exact', { pad: '' }));
    const body = base.replace('"pad":""', `"pad":"${'y'.repeat(64 * 1024 - Buffer.byteLength(base))}"`);
    expect(Buffer.byteLength(body)).toBe(64 * 1024);
    expectAnswer(await send(srv.url, body), 200, 'ok');
  });

  it.each([['text/plain'], ['application/x-www-form-urlencoded'], ['application/jsonp'], [null]])(
    'content type %s → 415',
    async (contentType) => {
      expectAnswer(await send(srv.url, msg('CT'), { contentType }), 415, 'unsupported_media_type');
    },
  );

  it.each([['application/json; charset=utf-8'], ['Application/JSON'], ['application/vnd.segment+json']])(
    'content type %s is JSON',
    async (contentType) => {
      expectAnswer(await send(srv.url, msg(`CT-${contentType}`), { contentType }), 200, 'ok');
    },
  );

  it.each([['GET'], ['PUT'], ['DELETE'], ['PATCH']])('method %s → 405 with Allow: POST', async (method) => {
    const a = await send(srv.url, method === 'GET' ? undefined : msg('M'), { method });
    expectAnswer(a, 405, 'method_not_allowed');
    expect(a.headers.get('allow')).toBe('POST');
  });

  it('handler threw → 500 handler_error; the error reached onError', async () => {
    const before = errors.length;
    expectAnswer(await send(srv.url, msg('Throw')), 500, 'handler_error');
    expect(errors.length).toBe(before + 1);
    expect((errors.at(-1) as Error).message).toBe('boom');
  });

  it('handler still running at the deadline → 503 with Retry-After, before the sender’s 5 s', async () => {
    const a = await send(srv.url, msg('Slow'));
    expectAnswer(a, 503, 'deadline_exceeded');
    expect(a.headers.get('retry-after')).toBe('5');
    expect(a.ms).toBeGreaterThanOrEqual(290);
    expect(a.ms).toBeLessThan(5000);
  });
});
