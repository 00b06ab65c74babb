// Typed handlers per message type, the catch-all, the handler context, and what a failing handler
// may (not) reveal to the sender. Over a real node:http server.
import { afterEach, describe, expect, it } from 'vitest';
import { fixtures, type ReceiverErrorInfo, type WebhookMessage } from '../src/index.js';
import { SECRET, send, serveReceiver, type ServedReceiver } from './helpers/receiver-server.js';

let srv: ServedReceiver | undefined;
afterEach(async () => {
  await srv?.receiver.drain();
  await srv?.close();
  srv = undefined;
});

describe('handlers', () => {
  it('a type’s own handler wins over the catch-all; other types go to the catch-all', async () => {
    const calls: string[] = [];
    srv = await serveReceiver({
      secret: SECRET,
      on: {
        track: (msg) => void calls.push(`track:${msg.event}`),
        alias: (msg) => void calls.push(`alias:${msg['Previous ID']}>${msg['User ID']}`),
      },
      onMessage: (msg) => void calls.push(`any:${msg.type}`),
    });
    for (const m of Object.values(fixtures)) expect((await send(srv.url, m)).json.code).toBe('ok');
    expect(calls).toEqual([
      'any:page',
      'any:screen',
      'any:identify',
      'track:Order Completed',
      'alias:anon_5e1f>user_1001',
      'any:group',
      'any:delete',
    ]);
  });

  it('a type with no handler and no catch-all answers 200 unhandled (the sender must not retry it)', async () => {
    const calls: string[] = [];
    srv = await serveReceiver({ secret: SECRET, on: { track: () => void calls.push('track') } });
    const a = await send(srv.url, fixtures.page);
    expect(a.status).toBe(200);
    expect(a.json).toMatchObject({ ok: true, code: 'unhandled', handled: false });
    expect(a.json.message).toContain('page');
    expect(calls).toEqual([]);
    // It counts as handled for dedupe: a retry is a duplicate.
    expect((await send(srv.url, fixtures.page)).json.code).toBe('duplicate');
  });

  it('a handler gets the parsed message with its extras, and a context', async () => {
    let seen: { msg: WebhookMessage; ctx: Record<string, unknown> } | undefined;
    srv = await serveReceiver({
      secret: ['new-secret', SECRET],
      onMessage: (msg, ctx) => {
        seen = {
          msg,
          ctx: {
            verification: ctx.verification,
            dedupeKey: ctx.dedupeKey,
            ua: ctx.header('User-Agent'),
            custom: ctx.header('x-custom'),
            missing: ctx.header('x-nope'),
            aborted: ctx.signal.aborted,
            receivedAt: ctx.receivedAt,
          },
        };
      },
    });
    const body = { ...fixtures.identify, messageId: 'msg-42', context: { ip: '203.0.113.7' } };
    const before = Date.now();
    await send(srv.url, body, { headers: { 'X-Custom': 'v1' } });
    expect(seen!.msg).toEqual(body);
    expect(seen!.ctx).toMatchObject({
      verification: { form: 'raw', secretIndex: 1 },
      dedupeKey: 'id:msg-42',
      ua: 'Segment.io/1.0',
      custom: 'v1',
      missing: undefined,
      aborted: false,
    });
    const at = (seen!.ctx.receivedAt as Date).getTime();
    expect(at).toBeGreaterThanOrEqual(before - 5);
    expect(at).toBeLessThanOrEqual(Date.now());
  });

  it('an async handler is awaited before the answer', async () => {
    let finished = false;
    srv = await serveReceiver({
      secret: SECRET,
      onMessage: async () => {
        await new Promise((r) => setTimeout(r, 50));
        finished = true;
      },
    });
    expect((await send(srv.url, fixtures.track)).status).toBe(200);
    expect(finished).toBe(true);
  });
});

describe('a failing handler', () => {
  const LEAK = 'sk_live_51HLEAKYSECRETVALUE';

  it.each([
    [
      'throws an Error',
      () => {
        throw new Error(`database password=${LEAK} rejected`);
      },
    ],
    ['rejects', async () => Promise.reject(new TypeError(`token ${LEAK}`))],
    [
      'throws a string',
      () => {
        // eslint-disable-next-line @typescript-eslint/only-throw-error -- a handler that throws a string is part of what is tested
        throw LEAK;
      },
    ],
    [
      'throws an object',
      () => {
        // eslint-disable-next-line @typescript-eslint/only-throw-error -- a handler that throws a plain object is part of what is tested
        throw { secret: LEAK };
      },
    ],
  ])('that %s answers 500 with a generic body and reports to onError', async (_name, handler) => {
    const reported: Array<[unknown, ReceiverErrorInfo]> = [];
    srv = await serveReceiver({
      secret: SECRET,
      on: { track: handler },
      onError: (e, info) => void reported.push([e, info]),
    });
    const a = await send(srv.url, { ...fixtures.track, messageId: 'fail-1' });
    expect(a.status).toBe(500);
    expect(a.json).toEqual({ ok: false, code: 'handler_error', message: 'The handler failed; the sender will retry.' });
    expect(a.text).not.toContain(LEAK);
    expect(a.text).not.toMatch(/\bat\s|\.ts:|Error:/);
    const names: string[] = [];
    a.headers.forEach((_v, k) => void names.push(k));
    expect(names.filter((n) => n.startsWith('x-'))).toEqual([]);
    expect(reported).toHaveLength(1);
    expect(reported[0]![1]).toMatchObject({ phase: 'handler', dedupeKey: 'id:fail-1', message: { type: 'track' } });
    expect(JSON.stringify(reported[0]![0]) + String((reported[0]![0] as Error).message ?? reported[0]![0])).toContain(
      LEAK,
    );
  });

  it('without onError, the failure goes to the logger, not to the sender', async () => {
    const lines: string[] = [];
    srv = await serveReceiver({
      secret: SECRET,
      logger: { warn: (l) => void lines.push(l) },
      on: {
        group: () => {
          throw new Error('group sync failed');
        },
      },
    });
    const a = await send(srv.url, fixtures.group);
    expect(a.status).toBe(500);
    expect(a.text).not.toContain('group sync failed');
    expect(
      lines.some((l) => l.includes('group sync failed') && l.includes('handler failure for a group message')),
    ).toBe(true);
  });
});
