// destination: 'actions' on core's receiver, driven by Segment's own Webhooks (Actions) code
// (@segment/action-destinations 3.387.0 through @segment/actions-core) over real HTTP, plus
// hand-made requests for what Segment's code would never send (forgeries, bad payloads).
import { createHash, createHmac } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as v from 'valibot';
import { type } from 'arktype';
import { startHttpServer, type RunningServer } from '../../../test/helpers/servers.js';
import { segmentEvent, segmentSendBatch, segmentSendEvent } from '../../../test/helpers/segment-actions-sender.js';
import {
  createReceiver,
  toNodeListener,
  type ActionsHandlerContext,
  type Receiver,
  type ReceiverOptions,
} from '../src/index.js';
import { type AnyReceiverOptions } from '../src/internal.js';

const SECRET = 'whsec_actions_core_7f2a';
const hmac = (text: string, secret = SECRET) => createHmac('sha1', secret).update(text).digest('hex');

let served: (RunningServer & { receiver: Receiver }) | undefined;
afterEach(async () => {
  await served?.receiver.drain();
  await served?.close();
  served = undefined;
});

async function serve(options: AnyReceiverOptions): Promise<RunningServer & { receiver: Receiver }> {
  // Either destination's options, as adapters pass them on.
  const receiver = createReceiver(options as ReceiverOptions);
  const server = await startHttpServer(toNodeListener(receiver));
  served = { ...server, receiver };
  return served;
}

async function post(
  url: string,
  body: string,
  {
    method = 'PUT',
    signature,
    headers = {},
  }: { method?: string; signature?: string | null; headers?: Record<string, string> } = {},
) {
  const sig = signature === undefined ? hmac(body) : signature;
  const response = await fetch(url, {
    method,
    headers: {
      'content-type': 'application/json',
      'user-agent': 'Segment (Actions)',
      ...(sig === null ? {} : { 'x-signature': sig }),
      ...headers,
    },
    body,
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, json: JSON.parse(text) as Record<string, unknown> };
}

describe("destination: 'actions' — single events from Segment's own code", () => {
  it('POST, PUT and PATCH with the default mapping reach on[type] with the whole Segment event', async () => {
    const seen: unknown[] = [];
    const srv = await serve({
      destination: 'actions',
      secret: SECRET,
      on: {
        track: (e, ctx) =>
          void seen.push({
            type: e.type,
            event: e.event,
            messageId: e.messageId,
            key: ctx.dedupeKey,
            batch: ctx.batch,
            ua: ctx.header('user-agent'),
          }),
        identify: (e) => void seen.push({ type: e.type, email: e.traits?.email }),
        alias: (e) => void seen.push({ type: e.type, previousId: e.previousId }),
      },
    });
    const events = [segmentEvent('track'), segmentEvent('identify'), segmentEvent('alias')];
    for (const [i, method] of (['POST', 'PUT', 'PATCH'] as const).entries()) {
      expect(await segmentSendEvent(events[i]!, { url: `${srv.url}/hook`, method }, SECRET)).toMatchObject({
        ok: true,
      });
    }
    expect(seen).toEqual([
      {
        type: 'track',
        event: 'Order Completed',
        messageId: events[0]!.messageId,
        key: `id:${String(events[0]!.messageId)}`,
        batch: undefined,
        ua: 'Segment (Actions)',
      },
      { type: 'identify', email: 'ada@example.com' },
      { type: 'alias', previousId: 'anon_5e1f' },
    ]);
  });

  it('a retried event (same messageId) is handled once', async () => {
    let calls = 0;
    const srv = await serve({ destination: 'actions', secret: SECRET, on: { track: () => void calls++ } });
    const event = segmentEvent('track');
    expect((await segmentSendEvent(event, { url: srv.url, method: 'PUT' }, SECRET)).ok).toBe(true);
    expect((await segmentSendEvent(event, { url: srv.url, method: 'PUT' }, SECRET)).ok).toBe(true);
    expect(calls).toBe(1);
  });

  it('a wrong secret is 401 (Segment does not retry it) and nothing runs', async () => {
    let calls = 0;
    const srv = await serve({ destination: 'actions', secret: SECRET, on: { track: () => void calls++ } });
    expect(await segmentSendEvent(segmentEvent('track'), { url: srv.url }, 'another-secret')).toMatchObject({
      ok: false,
      status: 401,
    });
    expect(await segmentSendEvent(segmentEvent('track'), { url: srv.url })).toMatchObject({ ok: false, status: 401 });
    expect(calls).toBe(0);
  });

  it('a mapped payload reaches onPayload; without messageId it is deduped by the signed digest', async () => {
    const seen: unknown[] = [];
    const srv = await serve({
      destination: 'actions',
      secret: SECRET,
      onPayload: (p, ctx) => void seen.push({ p, key: ctx.dedupeKey }),
    });
    const event = segmentEvent('track', { properties: { orderId: 'o-77', total: 19.99 } });
    const mapping = {
      url: srv.url,
      method: 'PATCH' as const,
      data: {
        order: { '@path': '$.properties.orderId' },
        total: { '@path': '$.properties.total' },
        who: { '@path': '$.userId' },
      },
    };
    expect((await segmentSendEvent(event, mapping, SECRET)).ok).toBe(true);
    expect((await segmentSendEvent(event, mapping, SECRET)).ok).toBe(true);
    const body = JSON.stringify({ order: 'o-77', total: 19.99, who: 'user_1001' });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ p: { order: 'o-77', total: 19.99, who: 'user_1001' } });
    expect((seen[0] as { key: string }).key).toBe(`sha256:${createHash('sha256').update(body).digest('hex')}`);
  });

  it('a body whose type has an on handler must be a whole event (400 naming the field); other payloads go to onPayload', async () => {
    const payloads: unknown[] = [];
    const srv = await serve({
      destination: 'actions',
      secret: SECRET,
      on: { track: () => undefined },
      onPayload: (p) => void payloads.push(p),
    });
    const partial = await post(srv.url, JSON.stringify({ type: 'track', event: 'X' }));
    expect(partial.status).toBe(400);
    expect(partial.json.code).toBe('invalid_message');
    expect(String(partial.json.message)).toContain('/messageId');
    expect(String(partial.json.message)).toContain('onPayload');
    // An identify event has no `on` handler here: it is a payload like any other.
    expect((await segmentSendEvent(segmentEvent('identify'), { url: srv.url }, SECRET)).ok).toBe(true);
    expect(payloads).toMatchObject([{ type: 'identify' }]);
  });

  it('any JSON object is a payload; a string or number body is 400 invalid_payload', async () => {
    const srv = await serve({ destination: 'actions', secret: SECRET, onPayload: () => undefined });
    expect((await post(srv.url, '{}')).status).toBe(200);
    const text = await post(srv.url, '"hello"');
    expect(text.status).toBe(400);
    expect(text.json.code).toBe('invalid_payload');
  });

  it('GET and DELETE are 405 with Allow: POST, PUT, PATCH; a classic receiver still answers PUT 405', async () => {
    const srv = await serve({ destination: 'actions', secret: SECRET, onPayload: () => undefined });
    const get = await fetch(srv.url);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST, PUT, PATCH');
    expect((await fetch(srv.url, { method: 'DELETE' })).status).toBe(405);
    await served!.close();
    served = undefined;
    const classic = await serve({ secret: SECRET, onMessage: () => undefined });
    expect((await segmentSendEvent(segmentEvent('track'), { url: classic.url, method: 'PUT' }, SECRET)).status).toBe(
      405,
    );
  });
});

describe('schemas (Standard Schema: Zod, Valibot, ArkType)', () => {
  const schemas = {
    zod: z.object({ order: z.string(), total: z.number().positive() }),
    valibot: v.object({ order: v.string(), total: v.pipe(v.number(), v.minValue(0.01)) }),
    arktype: type({ order: 'string', total: 'number > 0' }),
  };
  for (const [name, schema] of Object.entries(schemas)) {
    it(`${name}: a valid payload is typed and handled; an invalid one is 400 with the schema's issues and paths`, async () => {
      const seen: unknown[] = [];
      const srv = await serve({ destination: 'actions', secret: SECRET, schema, onPayload: (p) => void seen.push(p) });
      const event = segmentEvent('track', { properties: { orderId: 'o-9', total: 5 } });
      const good = {
        url: srv.url,
        method: 'PUT' as const,
        data: { order: { '@path': '$.properties.orderId' }, total: { '@path': '$.properties.total' } },
      };
      expect((await segmentSendEvent(event, good, SECRET)).ok).toBe(true);
      expect(seen).toEqual([{ order: 'o-9', total: 5 }]);
      const bad = await post(srv.url, JSON.stringify({ order: 42, total: -1 }));
      expect(bad.status).toBe(400);
      expect(bad.json.code).toBe('invalid_payload');
      const issues = bad.json.issues as { path: string; message: string }[];
      expect(issues.map((i) => i.path).sort()).toEqual(['/order', '/total']);
      // Segment's code gets the same 400 and does not retry it.
      expect(
        (
          await segmentSendEvent(
            segmentEvent('track'),
            { ...good, data: { order: { '@path': '$.properties.total' } } },
            SECRET,
          )
        ).status,
      ).toBe(400);
      expect(seen).toHaveLength(1);
    });
  }
});

describe('batches', () => {
  const track = () => segmentEvent('track');

  it("are refused by default with 422 batch_refused naming both fixes; Segment's code gets the 422", async () => {
    let calls = 0;
    const srv = await serve({ destination: 'actions', secret: SECRET, on: { track: () => void calls++ } });
    expect(await segmentSendBatch([track(), track()], { url: srv.url }, SECRET)).toMatchObject({
      ok: false,
      status: 422,
    });
    const answer = await post(srv.url, JSON.stringify([track()]));
    expect(answer.status).toBe(422);
    expect(answer.json.code).toBe('batch_refused');
    expect(String(answer.json.message)).toMatch(/first event/);
    expect(String(answer.json.message)).toMatch(/batching off/);
    expect(String(answer.json.message)).toContain('insecureAcceptBatches: true');
    expect(calls).toBe(0);
  });

  it("with insecureAcceptBatches: Segment's signed batch runs each element once, and ctx.batch says which the signature covered", async () => {
    const seen: { messageId: string; batch: ActionsHandlerContext['batch']; key: string | undefined }[] = [];
    const srv = await serve({
      destination: 'actions',
      secret: SECRET,
      insecureAcceptBatches: true,
      on: { track: (e, ctx) => void seen.push({ messageId: e.messageId, batch: ctx.batch, key: ctx.dedupeKey }) },
    });
    const events = [track(), track(), track()];
    expect((await segmentSendBatch(events, { url: srv.url, method: 'PUT' }, SECRET)).ok).toBe(true);
    expect(seen.map((s) => s.messageId)).toEqual(events.map((e) => e.messageId));
    expect(seen.map((s) => s.batch)).toEqual([
      { index: 0, size: 3, signed: true, uncovered: [1, 2], skipped: [] },
      { index: 1, size: 3, signed: false, uncovered: [1, 2], skipped: [] },
      { index: 2, size: 3, signed: false, uncovered: [1, 2], skipped: [] },
    ]);
    // An element no signature covered has a dedupe key of its own namespace (it cannot mark a signed delivery handled).
    expect(seen[0]!.key).toBe(`id:${String(events[0]!.messageId)}`);
    expect(seen[1]!.key).toBe(`uncovered:id:${String(events[1]!.messageId)}`);
    // The retry of the batch, plus one new event: only the new one runs.
    const more = [...events, track()];
    expect((await segmentSendBatch(more, { url: srv.url }, SECRET)).ok).toBe(true);
    expect(seen.map((s) => s.messageId)).toEqual(more.map((e) => e.messageId));
    expect(seen[3]!.batch).toEqual({ index: 3, size: 4, signed: false, uncovered: [1, 2, 3], skipped: [] });
    // Every element seen before: 200 duplicate, nothing runs.
    const again = await post(srv.url, JSON.stringify(more), { signature: hmac(JSON.stringify(more[0])) });
    expect(again.json.code).toBe('duplicate');
    expect(seen).toHaveLength(4);
  });

  it('a forged element appended behind a captured signature is handled but flagged uncovered; a changed first element is 401', async () => {
    const seen: { event: string; signed: boolean | undefined }[] = [];
    const srv = await serve({
      destination: 'actions',
      secret: SECRET,
      insecureAcceptBatches: true,
      on: { track: (e, ctx) => void seen.push({ event: e.event, signed: ctx.batch?.signed }) },
    });
    const genuine = track();
    const captured = hmac(JSON.stringify(genuine));
    const forged = { ...track(), event: 'Refund Issued' };
    const ok = await post(srv.url, JSON.stringify([genuine, forged]), { signature: captured });
    expect(ok.status).toBe(200);
    expect(seen).toEqual([
      { event: 'Order Completed', signed: true },
      { event: 'Refund Issued', signed: false },
    ]);
    const tampered = await post(srv.url, JSON.stringify([{ ...track(), event: 'Tampered' }]), { signature: captured });
    expect(tampered.status).toBe(401);
    expect(tampered.json.code).toBe('invalid_signature');
    // The whole body's HMAC (what a naive receiver checks) is not what Segment signs: 401.
    const whole = JSON.stringify([track(), track()]);
    expect((await post(srv.url, whole, { signature: hmac(whole) })).status).toBe(401);
    expect(seen).toHaveLength(2);
  });

  it("an unsigned batch is 401 unless insecureAcceptBatches: 'including-unsigned' (then every element is uncovered)", async () => {
    const seen: unknown[] = [];
    let srv = await serve({
      destination: 'actions',
      secret: SECRET,
      insecureAcceptBatches: true,
      onPayload: () => void seen.push(1),
    });
    const refused = await post(srv.url, JSON.stringify([track()]), { signature: null });
    expect(refused.status).toBe(401);
    expect(String(refused.json.message)).toContain("'including-unsigned'");
    await served!.close();
    served = undefined;
    srv = await serve({
      destination: 'actions',
      secret: SECRET,
      insecureAcceptBatches: 'including-unsigned',
      onPayload: (_p, ctx) => void seen.push(ctx.batch),
    });
    expect((await post(srv.url, JSON.stringify([{ a: 1 }, { a: 2 }]), { signature: null })).status).toBe(200);
    expect(seen).toEqual([
      { index: 0, size: 2, signed: false, uncovered: [0, 1], skipped: [] },
      { index: 1, size: 2, signed: false, uncovered: [0, 1], skipped: [] },
    ]);
    // A present signature must still match the first element.
    expect((await post(srv.url, JSON.stringify([{ a: 3 }]), { signature: hmac('nope') })).status).toBe(401);
  });

  it('an invalid element refuses the whole batch (400 naming /index/path) before anything runs; a failing element is 500 and only it is retried', async () => {
    const runs: string[] = [];
    let failOnce = true;
    const srv = await serve({
      destination: 'actions',
      secret: SECRET,
      insecureAcceptBatches: true,
      schema: z.object({ id: z.string() }),
      onPayload: (p) => {
        if (p.id === 'b' && failOnce) {
          failOnce = false;
          throw new Error('downstream down');
        }
        runs.push(p.id);
      },
      onError: () => undefined,
    });
    const bad = [{ id: 'a' }, { id: 7 }];
    const refused = await post(srv.url, JSON.stringify(bad), { signature: hmac(JSON.stringify(bad[0])) });
    expect(refused.status).toBe(400);
    expect(refused.json.issues).toMatchObject([{ path: '/1/id' }]);
    expect(runs).toEqual([]);
    const batch = [{ id: 'a' }, { id: 'b' }, { id: 'c' }];
    const sig = hmac(JSON.stringify(batch[0]));
    expect((await post(srv.url, JSON.stringify(batch), { signature: sig })).status).toBe(500);
    expect(runs).toEqual(['a', 'c']);
    expect((await post(srv.url, JSON.stringify(batch), { signature: sig })).status).toBe(200);
    expect(runs).toEqual(['a', 'c', 'b']);
  });

  it('a pass-through receiver (no handlers) refuses batches even with the opt-in: it could not run each element once', async () => {
    const receiver = createReceiver({ destination: 'actions', secret: SECRET, insecureAcceptBatches: true });
    const body = JSON.stringify([track()]);
    const result = await receiver.accept({
      method: 'PUT',
      headers: { 'content-type': 'application/json', 'x-signature': hmac(JSON.stringify(JSON.parse(body)[0])) },
      rawBody: body,
    });
    expect(result.kind === 'response' && result.response.status).toBe(422);
  });
});

describe('the classic machinery, unchanged', () => {
  it('the deadline: a slow handler is answered 503 (Segment retries); stopped by its signal, its retry runs again', async () => {
    let calls = 0;
    const srv = await serve({
      destination: 'actions',
      secret: SECRET,
      deadlineMs: 300,
      onError: () => undefined,
      on: {
        track: (_e, ctx) =>
          ++calls === 1
            ? new Promise((_resolve, reject) =>
                ctx.signal.addEventListener('abort', () => reject(new Error('stopped'))),
              )
            : undefined,
      },
    });
    const event = segmentEvent('track');
    expect(await segmentSendEvent(event, { url: srv.url, method: 'PUT' }, SECRET)).toMatchObject({
      ok: false,
      status: 503,
    });
    await srv.receiver.drain();
    expect((await segmentSendEvent(event, { url: srv.url, method: 'PUT' }, SECRET)).ok).toBe(true);
    expect(calls).toBe(2);
  });

  it('a batch at the deadline: 503, the elements not run yet are left for the retry, and nothing runs twice', async () => {
    const runs: string[] = [];
    let slow = true;
    const srv = await serve({
      destination: 'actions',
      secret: SECRET,
      deadlineMs: 300,
      insecureAcceptBatches: true,
      onError: () => undefined,
      onPayload: async (p, ctx) => {
        if (p.id === 'a' && slow) {
          slow = false;
          await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve));
        }
        runs.push(String(p.id));
      },
    });
    const batch = [{ id: 'a' }, { id: 'b' }, { id: 'c' }];
    const sig = hmac(JSON.stringify(batch[0]));
    expect((await post(srv.url, JSON.stringify(batch), { signature: sig })).status).toBe(503);
    await srv.receiver.drain();
    // 'a' finished after the deadline (handled); 'b' and 'c' were released for the retry.
    expect(runs).toEqual(['a']);
    expect((await post(srv.url, JSON.stringify(batch), { signature: sig })).status).toBe(200);
    expect(runs).toEqual(['a', 'b', 'c']);
  });

  it("mode 'acknowledge' answers 200 at once and runs the handler after", async () => {
    let release!: () => void;
    const done = new Promise<void>((resolve) => (release = resolve));
    const seen: string[] = [];
    const srv = await serve({
      destination: 'actions',
      secret: SECRET,
      mode: 'acknowledge',
      on: {
        track: async (e) => {
          await done;
          seen.push(e.event);
        },
      },
    });
    const answer = await post(srv.url, JSON.stringify(segmentEvent('track')));
    expect(answer.json).toMatchObject({ ok: true, acknowledged: true });
    expect(seen).toEqual([]);
    release();
    await srv.receiver.drain();
    expect(seen).toEqual(['Order Completed']);
  });

  it('with debug, a mismatch is explained as for classic (never the whole signature)', async () => {
    const lines: string[] = [];
    const srv = await serve({
      destination: 'actions',
      secret: SECRET,
      debug: true,
      logger: { warn: (line) => void lines.push(line) },
      onPayload: () => undefined,
    });
    const body = '{"total":1.0,"ok":true}';
    const signature = hmac(JSON.stringify(JSON.parse(body)));
    expect((await post(srv.url, body, { signature })).status).toBe(401);
    expect(lines.join('\n')).toMatch(/1\.0|number/);
    expect(lines.join('\n')).not.toContain(signature);
  });
});

describe('options', () => {
  it('classic-only options are refused with the fix; batch and schema options are checked', () => {
    expect(() =>
      createReceiver({ destination: 'actions', secret: SECRET, onMessage: () => undefined } as never),
    ).toThrow(/onPayload/);
    expect(() =>
      createReceiver({ destination: 'actions', secret: SECRET, on: { delete: () => undefined } } as never),
    ).toThrow(/on\.delete|Segment event type/);
    expect(() =>
      createReceiver({ destination: 'actions', secret: SECRET, insecureAcceptBatches: 'yes' } as never),
    ).toThrow(/insecureAcceptBatches/);
    expect(() =>
      createReceiver({
        destination: 'actions',
        secret: SECRET,
        schema: { parse() {} },
        onPayload: () => undefined,
      } as never),
    ).toThrow(/Standard Schema/);
    expect(() => createReceiver({ destination: 'action', secret: SECRET } as never)).toThrow(/destination must be/);
    expect(() =>
      createReceiver({
        destination: 'actions',
        secret: SECRET,
        insecureAcceptBatches: true,
        onPayload: () => undefined,
      } as never),
    ).not.toThrow();
    expect(() => createReceiver({ destination: 'actions', onPayload: () => undefined } as never)).toThrow(
      /secret is required/,
    );
  });
});
