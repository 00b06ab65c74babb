// What a Webhooks (Actions) batch is answered, word for word, over real HTTP (core's node listener): refused
// in enqueue mode, empty, all null, unsigned, signed wrong, not JSON, with bad elements (each named), and
// handlers failing (one error as it is, several as one AggregateError to onError).
import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { startHttpServer, type RunningServer } from '../../../test/helpers/servers.js';
import { createReceiver, toNodeListener, type ReceiverOptions } from '../src/index.js';
import { BATCH_ENQUEUE_MESSAGE, NULL_FIRST_BATCH_MESSAGE, UNSIGNED_BATCH_MESSAGE } from '../src/actions/batch-rules.js';

const SECRET = 'whsec_batch_answers_0c77';
const hmac = (text: string, secret = SECRET) => createHmac('sha1', secret).update(text).digest('hex');

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(options: Record<string, unknown>): Promise<string> {
  const listener = toNodeListener(
    createReceiver({ destination: 'actions', secret: SECRET, ...options } as unknown as ReceiverOptions),
  );
  server = await startHttpServer((req, res) => void listener(req, res));
  return server.url;
}

async function post(url: string, body: string, signature: string | null) {
  const r = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(signature === null ? {} : { 'x-signature': signature }) },
    body,
  });
  return { status: r.status, json: (await r.json()) as Record<string, unknown> };
}

const event = (messageId: string, extra: Record<string, unknown> = {}) => ({
  type: 'track',
  event: 'Ordered',
  userId: 'u-1',
  messageId,
  timestamp: '2026-11-27T10:00:00.000Z',
  receivedAt: '2026-11-27T10:00:01.000Z',
  ...extra,
});
const signedBatch = (batch: unknown[]) => [JSON.stringify(batch), hmac(JSON.stringify(batch[0]))] as const;

describe('batch answers', () => {
  it('enqueue mode refuses a batch (422) saying why and what to change', async () => {
    const url = await serve({ enqueue: () => undefined });
    const a = await post(url, ...signedBatch([event('q1'), event('q2')]));
    expect([a.status, a.json]).toEqual([422, { ok: false, code: 'batch_refused', message: BATCH_ENQUEUE_MESSAGE }]);
  });

  it('an empty batch → 400 invalid_payload; a batch that is not JSON → 400 invalid_json', async () => {
    const url = await serve({ insecureAcceptBatches: true, onPayload: () => {} });
    const empty = await post(url, '[]', hmac('[]'));
    expect([empty.status, empty.json]).toEqual([
      400,
      {
        ok: false,
        code: 'invalid_payload',
        message: 'The batch is empty: a Webhooks (Actions) batch holds at least one event.',
      },
    ]);
    const bad = await post(url, '[{"a":1},', hmac('{"a":1}'));
    expect([bad.status, bad.json.code]).toEqual([400, 'invalid_json']);
  });

  it("every element null → 200 naming the skipped slots, with 'including-unsigned'; 401 otherwise", async () => {
    const ran: unknown[] = [];
    const url = await serve({ insecureAcceptBatches: 'including-unsigned', onPayload: (p: unknown) => ran.push(p) });
    const a = await post(url, '[null,null]', null);
    expect([a.status, a.json]).toEqual([
      200,
      {
        ok: true,
        code: 'ok',
        message: 'Every element of this batch is null (its mapping gave no data); nothing to run.',
        skipped: [0, 1],
      },
    ]);
    expect(ran).toEqual([]);
    await server!.close();
    const signedOnly = await serve({ insecureAcceptBatches: true, logger: false, onPayload: () => {} });
    const b = await post(signedOnly, '[null,{"a":1}]', null);
    expect([b.status, b.json]).toEqual([
      401,
      { ok: false, code: 'missing_signature', message: NULL_FIRST_BATCH_MESSAGE },
    ]);
  });

  it('an unsigned batch → 401 naming the opt-in; a wrong signature → 401 saying what a batch signature covers', async () => {
    const lines: string[] = [];
    const url = await serve({
      insecureAcceptBatches: true,
      debug: true,
      logger: { warn: (l: string) => void lines.push(l) },
      onPayload: () => {},
    });
    const batch = JSON.stringify([{ a: 1 }, { a: 2 }]);
    const unsigned = await post(url, batch, null);
    expect([unsigned.status, unsigned.json]).toEqual([
      401,
      { ok: false, code: 'missing_signature', message: UNSIGNED_BATCH_MESSAGE },
    ]);
    const empty = await post(url, batch, '');
    expect([empty.status, empty.json]).toEqual([
      401,
      { ok: false, code: 'missing_signature', message: UNSIGNED_BATCH_MESSAGE },
    ]);
    const wrong = await post(url, batch, hmac('{"a":1}', 'whsec_other'));
    expect(wrong.status).toBe(401);
    expect(wrong.json.code).toBe('invalid_signature');
    expect(wrong.json.message).toMatch(
      / \(a batch's X-Signature must match its first event, the only one Segment signs\)\.$/,
    );
    expect(lines).toContain(
      "[hookgate] batch signature mismatch: it does not match the first element's JSON.stringify (what Segment signs for a batch).",
    );
  });

  it('bad elements → 400 naming each by index, the first 20 listed and the rest counted', async () => {
    const url = await serve({ insecureAcceptBatches: true, on: { track: () => {} } });
    const batch = [event('ok'), ...Array.from({ length: 22 }, (_, i) => event(`b${i}`, { event: 7 }))];
    const a = await post(url, ...signedBatch(batch));
    expect(a.status).toBe(400);
    const issues = a.json.issues as Array<{ path: string }>;
    expect(issues).toHaveLength(20);
    expect(issues[0]!.path).toMatch(/^\/1\//);
    expect(a.json.issueCount).toBe(22);
    expect(a.json.message).toMatch(/^Batch element 1 is refused: \/1\/event /);
    expect(a.json.message).toMatch(/; and 2 more issues$/);
    const few = await post(url, ...signedBatch([event('ok2'), event('b', { event: 7 })]));
    expect(few.json.message).not.toContain('more issues');
  });

  it('names the first bad element by its whole index and lists every issue, separated', async () => {
    const url = await serve({ insecureAcceptBatches: true, on: { track: () => {} } });
    const good = Array.from({ length: 11 }, (_, i) => event(`g${i}`));
    const a = await post(url, ...signedBatch([...good, event('b11', { event: 7 }), event('b12', { userId: 5 })]));
    expect([a.status, a.json.message]).toEqual([
      400,
      'Batch element 11 is refused: /11/event must be string; got number; /12/userId must be string or null; got number',
    ]);
    expect(a.json.issueCount).toBe(2);
  });

  it('without debug, an unsigned batch and a wrongly signed one each log one warning naming the likely fix, not the debug line', async () => {
    const lines: string[] = [];
    const url = await serve({
      insecureAcceptBatches: true,
      logger: { warn: (l: string) => void lines.push(l) },
      onPayload: () => {},
    });
    const batch = JSON.stringify([{ a: 1 }, { a: 2 }]);
    expect((await post(url, batch, null)).status).toBe(401);
    expect((await post(url, batch, hmac('{"a":1}', 'whsec_other'))).status).toBe(401);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^\[hookgate\] A request without X-Signature was refused 401 \(missing_signature\)\./);
    expect(lines[1]).toMatch(
      /^\[hookgate\] A signature did not match the raw body \(401 invalid_signature\)\. The secret/,
    );
  });

  it('with verification off (insecureSkipVerification), a batch needs no signature and no element counts as signed', async () => {
    const seen: unknown[] = [];
    const url = await serve({
      secret: undefined,
      insecureSkipVerification: true,
      insecureAcceptBatches: true,
      on: { track: (e: { messageId: string }, ctx: { batch?: unknown }) => void seen.push([e.messageId, ctx.batch]) },
    });
    const a = await post(url, JSON.stringify([event('v0'), event('v1')]), null);
    expect([a.status, a.json.code]).toEqual([200, 'ok']);
    expect(seen).toEqual([
      ['v0', { index: 0, size: 2, signed: false, uncovered: [0, 1], skipped: [] }],
      ['v1', { index: 1, size: 2, signed: false, uncovered: [0, 1], skipped: [] }],
    ]);
  });

  it("with 'including-unsigned', a batch whose first slot is null is unsigned: every element is uncovered", async () => {
    const seen: unknown[] = [];
    const url = await serve({
      insecureAcceptBatches: 'including-unsigned',
      on: { track: (e: { messageId: string }, ctx: { batch?: unknown }) => void seen.push([e.messageId, ctx.batch]) },
    });
    const a = await post(url, JSON.stringify([null, event('u1')]), null);
    expect([a.status, a.json.code]).toEqual([200, 'ok']);
    expect(seen).toEqual([['u1', { index: 1, size: 2, signed: false, uncovered: [0, 1], skipped: [0] }]]);
  });

  it('an element of a type with no handler is acknowledged, and the others still run', async () => {
    const ran: string[] = [];
    const url = await serve({
      insecureAcceptBatches: true,
      onError: (e: unknown) => void ran.push(`error: ${String(e)}`),
      on: { track: (e: { messageId: string }) => void ran.push(e.messageId) },
    });
    const identify = { ...event('i1'), type: 'identify', event: undefined, traits: { plan: 'pro' } };
    const a = await post(url, ...signedBatch([event('t0'), identify, event('t2')]));
    expect([a.status, a.json.code]).toEqual([200, 'ok']);
    expect(ran).toEqual(['t0', 't2']);
  });

  it('one failing element reaches onError as its own error; several as one AggregateError; 500 either way', async () => {
    const errors: unknown[] = [];
    const url = await serve({
      insecureAcceptBatches: true,
      onError: (e: unknown) => void errors.push(e),
      on: {
        track: (e: { event: string }) => {
          if (e.event.startsWith('Fail')) throw new Error(e.event);
        },
      },
    });
    const one = await post(url, ...signedBatch([event('e1'), event('e2', { event: 'Fail one' })]));
    expect(one.status).toBe(500);
    expect(errors).toEqual([new Error('Fail one')]);
    const two = await post(
      url,
      ...signedBatch([event('e3', { event: 'Fail a' }), event('e4'), event('e5', { event: 'Fail b' })]),
    );
    expect(two.status).toBe(500);
    const aggregate = errors[1] as AggregateError;
    expect(aggregate).toBeInstanceOf(AggregateError);
    expect(aggregate.message).toBe(
      '2 batch elements failed; the sender will retry the batch (handled elements are skipped).',
    );
    expect(aggregate.errors).toEqual([new Error('Fail a'), new Error('Fail b')]);
  });
});
