// Issue #30 item 1: a body read before the receiver (a Next.js route calling `await request.json()`
// before `receiver.fetch(request)`, a Node body parser before `toNodeListener`) is the status table's
// 500 `body_already_read` with a message that says what to change, never a thrown TypeError.
import { getRequestListener } from '@hono/node-server';
import { afterEach, describe, expect, it } from 'vitest';
import { startHttpServer, type RunningServer } from '../../../test/helpers/servers.js';
import { createReceiver, fixtures, toNodeListener } from '../src/index.js';
import { SECRET, hmac, send } from './helpers/receiver-server.js';

const body = JSON.stringify({ ...fixtures.track, messageId: 'read-before' });
const signed = () =>
  new Request('http://receiver.test/hooks', {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', 'x-signature': hmac(body) },
  });

describe('a body already read before the receiver', () => {
  let server: RunningServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('receiver.fetch of a Request whose body was consumed → 500 body_already_read, naming the fix', async () => {
    let ran = 0;
    const receiver = createReceiver({ secret: SECRET, onMessage: () => void ran++ });
    const request = signed();
    await request.json();
    const res = await receiver.fetch(request);
    expect(res.status).toBe(500);
    const answer = (await res.json()) as { code: string; message: string };
    expect(answer.code).toBe('body_already_read');
    expect(answer.message).toMatch(/request\.json\(\)/);
    expect(answer.message).toMatch(/rawBody/);
    expect(ran).toBe(0);
  });

  it('a locked body (a reader taken) is the same answer', async () => {
    const receiver = createReceiver({ secret: SECRET, onMessage: () => {} });
    const request = signed();
    request.body!.getReader();
    const res = await receiver.fetch(request);
    expect(res.status).toBe(500);
    expect(((await res.json()) as { code: string }).code).toBe('body_already_read');
  });

  it('over real HTTP: a fetch route that calls request.json() first answers the JSON 500, not a crash', async () => {
    const receiver = createReceiver({ secret: SECRET, onMessage: () => {} });
    const listener = getRequestListener(async (request) => {
      await request.json();
      return receiver.fetch(request);
    });
    server = await startHttpServer((req, res) => void listener(req, res));
    const answer = await send(server.url, body);
    expect(answer.status).toBe(500);
    expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(answer.json).toMatchObject({ ok: false, code: 'body_already_read' });
  });

  it('over real HTTP: toNodeListener after a Node stream was read to its end answers the JSON 500 at once', async () => {
    const receiver = createReceiver({ secret: SECRET, onMessage: () => {} });
    const listener = toNodeListener(receiver);
    server = await startHttpServer((req, res) => {
      req.resume(); // a body parser before the receiver, which consumed the stream
      req.once('end', () => void listener(req, res));
    });
    const answer = await send(server.url, body);
    expect(answer.status).toBe(500);
    expect(answer.json).toMatchObject({ ok: false, code: 'body_already_read' });
    expect(answer.ms).toBeLessThan(receiver.deadlineMs);
  });
});
