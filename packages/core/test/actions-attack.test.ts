// Webhooks (Actions) on core's receiver, attacked from outside over real HTTP (node listener): batches
// built to abuse the first-element-only signature, malformed batches, schemas that misbehave, and
// secrets kept out of every answer and log line.
import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as v from 'valibot';
import { type } from 'arktype';
import { startHttpServer, type RunningServer } from '../../../test/helpers/servers.js';
import {
  createReceiver,
  toNodeListener,
  type ActionsHandlerContext,
  type Receiver,
  type ReceiverOptions,
} from '../src/index.js';
import { type AnyReceiverOptions } from '../src/internal.js';

const SECRET = 'whsec_actions_attack_91b3';
const OLD_SECRET = 'whsec_actions_attack_old_22c0';
const hmac = (text: string, secret = SECRET) => createHmac('sha1', secret).update(text).digest('hex');

let served: (RunningServer & { receiver: Receiver }) | undefined;
afterEach(async () => {
  await served?.receiver.drain();
  await served?.close();
  served = undefined;
});

async function serve(options: AnyReceiverOptions): Promise<RunningServer & { receiver: Receiver }> {
  await served?.close();
  const receiver = createReceiver(options as ReceiverOptions);
  const server = await startHttpServer(toNodeListener(receiver));
  served = { ...server, receiver };
  return served;
}

async function put(url: string, body: string, signature: string | null = hmac(body)) {
  const r = await fetch(url, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', ...(signature === null ? {} : { 'x-signature': signature }) },
    body,
  });
  const text = await r.text();
  return { status: r.status, text, json: JSON.parse(text) as Record<string, unknown> };
}
const batchSig = (batch: unknown[], secret = SECRET) => hmac(JSON.stringify(batch[0]), secret);

interface Ran {
  payload: Record<string, unknown>;
  batch: ActionsHandlerContext['batch'];
  key: string | undefined;
}
function collector() {
  const ran: Ran[] = [];
  const onPayload = (payload: object, ctx: ActionsHandlerContext) =>
    void ran.push({ payload: payload as Record<string, unknown>, batch: ctx.batch, key: ctx.dedupeKey });
  return { ran, onPayload };
}

describe('Actions batches under attack', () => {
  it('forged elements appended behind a captured signature are refused by default, and flagged uncovered when accepted by name', async () => {
    const captured = [{ orderId: 'o-1', messageId: 'm-1' }];
    const forged = [...captured, { orderId: 'forged-1', messageId: 'f-1' }, { orderId: 'forged-2' }];
    const { ran, onPayload } = collector();
    let srv = await serve({ destination: 'actions', secret: SECRET, onPayload });
    const refused = await put(srv.url, JSON.stringify(forged), batchSig(captured));
    expect(refused.status).toBe(422);
    expect(refused.json.code).toBe('batch_refused');
    expect(ran).toEqual([]);

    srv = await serve({ destination: 'actions', secret: SECRET, insecureAcceptBatches: true, onPayload });
    expect((await put(srv.url, JSON.stringify(forged), batchSig(captured))).status).toBe(200);
    expect(ran.map((r) => [r.payload.orderId, r.batch?.signed, r.batch?.uncovered])).toEqual([
      ['o-1', true, [1, 2]],
      ['forged-1', false, [1, 2]],
      ['forged-2', false, [1, 2]],
    ]);
  });

  it('a tampered first element is 401, and nothing runs', async () => {
    const { ran, onPayload } = collector();
    const srv = await serve({ destination: 'actions', secret: SECRET, insecureAcceptBatches: true, onPayload });
    const signed = [{ orderId: 'o-1', total: 10 }, { orderId: 'o-2' }];
    const tampered = [{ orderId: 'o-1', total: 1000 }, { orderId: 'o-2' }];
    const r = await put(srv.url, JSON.stringify(tampered), batchSig(signed));
    expect(r.status).toBe(401);
    expect(r.json.message).toMatch(/first event/);
    expect(ran).toEqual([]);
  });

  it('an element repeated inside one batch runs once (it was 503 on every retry: its own in-flight claim)', async () => {
    const { ran, onPayload } = collector();
    const srv = await serve({ destination: 'actions', secret: SECRET, insecureAcceptBatches: true, onPayload });
    const batch = [
      { orderId: 'o-1', messageId: 'm-1' },
      { orderId: 'o-1', messageId: 'm-1' },
      { orderId: 'o-2' },
      { orderId: 'o-2' },
    ];
    const r = await put(srv.url, JSON.stringify(batch), batchSig(batch));
    expect(r.status).toBe(200);
    expect(ran.map((x) => [x.batch?.index, x.payload.orderId])).toEqual([
      [0, 'o-1'],
      [2, 'o-2'],
    ]);
    // The sender's retry of the same batch runs nothing again.
    const again = await put(srv.url, JSON.stringify(batch), batchSig(batch));
    expect([again.status, again.json.code]).toEqual([200, 'duplicate']);
    expect(ran).toHaveLength(2);
  });

  it('two batches sharing messageIds: the second runs only its new elements', async () => {
    const { ran, onPayload } = collector();
    const srv = await serve({ destination: 'actions', secret: SECRET, insecureAcceptBatches: true, onPayload });
    const first = [
      { n: 1, messageId: 'a' },
      { n: 2, messageId: 'b' },
    ];
    const second = [
      { n: 3, messageId: 'c' },
      { n: 2, messageId: 'b' },
      { n: 99, messageId: 'a' },
    ];
    expect((await put(srv.url, JSON.stringify(first), batchSig(first))).status).toBe(200);
    expect((await put(srv.url, JSON.stringify(second), batchSig(second))).status).toBe(200);
    expect(ran.map((x) => x.payload.n)).toEqual([1, 2, 3]);
  });

  it('a forged element cannot mark a messageId handled: the later signed event with that messageId still runs (it was answered duplicate)', async () => {
    const { ran, onPayload } = collector();
    const srv = await serve({ destination: 'actions', secret: SECRET, insecureAcceptBatches: true, onPayload });
    const captured = [{ orderId: 'o-1', messageId: 'm-1' }];
    // The attacker guesses a coming messageId (or a mapped payload's bytes, keyed by their digest).
    const forged = [...captured, { orderId: 'forged', messageId: 'm-next' }, { plan: 'pro', userId: 'u-1' }];
    expect((await put(srv.url, JSON.stringify(forged), batchSig(captured))).status).toBe(200);
    const legit = await put(srv.url, JSON.stringify({ orderId: 'o-2', messageId: 'm-next' }));
    expect([legit.status, legit.json.code]).toEqual([200, 'ok']);
    const legitMapped = await put(srv.url, JSON.stringify({ plan: 'pro', userId: 'u-1' }));
    expect([legitMapped.status, legitMapped.json.code]).toEqual([200, 'ok']);
    expect(ran.map((r) => [r.payload.orderId ?? r.payload.plan, r.key?.startsWith('uncovered:') ?? false])).toEqual([
      ['o-1', false],
      ['forged', true],
      ['pro', true],
      ['o-2', false],
      ['pro', false],
    ]);
    // Signed deliveries handled before are not run again as uncovered elements, nor is a repeat of element 0.
    const replay = [{ x: 1 }, { orderId: 'o-2', messageId: 'm-next' }, { x: 1 }, { orderId: 'o-1', messageId: 'm-1' }];
    expect((await put(srv.url, JSON.stringify(replay), batchSig(replay))).status).toBe(200);
    expect(ran.slice(5).map((r) => r.payload)).toEqual([{ x: 1 }]);
  });

  it('a first element signed by the old secret of a rotation is accepted, and says which secret matched', async () => {
    const verifications: unknown[] = [];
    const srv = await serve({
      destination: 'actions',
      secret: [SECRET, OLD_SECRET],
      insecureAcceptBatches: true,
      onPayload: (_p, ctx) => void verifications.push(ctx.verification),
    });
    const batch = [{ n: 1 }, { n: 2 }];
    expect((await put(srv.url, JSON.stringify(batch), batchSig(batch, OLD_SECRET))).status).toBe(200);
    expect(verifications).toEqual([
      { form: 'stringify', secretIndex: 1 },
      { form: 'stringify', secretIndex: 1 },
    ]);
  });

  it('empty arrays, non-objects and nested arrays are 400 naming each element (a null is skipped, not refused)', async () => {
    const { ran, onPayload } = collector();
    const srv = await serve({
      destination: 'actions',
      secret: SECRET,
      insecureAcceptBatches: 'including-unsigned',
      onPayload,
    });
    const empty = await put(srv.url, '[]', null);
    expect([empty.status, empty.json.code]).toEqual([400, 'invalid_payload']);
    const mixed = [{ ok: 1 }, null, 'text', 7, [{ nested: true }]];
    const r = await put(srv.url, JSON.stringify(mixed), batchSig(mixed));
    expect(r.status).toBe(400);
    expect((r.json.issues as { path: string }[]).map((i) => i.path)).toEqual(['/2', '/3', '/4']);
    expect(r.json.message).toMatch(/got a string|got string/);
    expect(r.json.message).toMatch(/got an array/);
    expect(ran).toEqual([]);
  });

  it('10,000 bad elements: 400 whose answer lists the first 20 and counts the rest (it was a 2 MB answer)', async () => {
    const { onPayload } = collector();
    const srv = await serve({ destination: 'actions', secret: SECRET, insecureAcceptBatches: true, onPayload });
    const bad = [{ ok: 1 }, ...Array.from({ length: 10_000 }, () => 7)];
    const r = await put(srv.url, JSON.stringify(bad), batchSig(bad));
    expect(r.status).toBe(400);
    expect(r.text.length).toBeLessThan(8_000);
    expect(r.json.issueCount).toBe(10_000);
    expect(r.json.issues).toHaveLength(20);
    expect(r.json.message).toMatch(/and 9980 more issues/);
  });

  it('10,000 tiny elements each run once; a 900 KB element and a deep element go through under the default body limit', async () => {
    const { ran, onPayload } = collector();
    const srv = await serve({ destination: 'actions', secret: SECRET, insecureAcceptBatches: true, onPayload });
    const tiny = Array.from({ length: 10_000 }, (_, i) => ({ i }));
    expect((await put(srv.url, JSON.stringify(tiny), batchSig(tiny))).status).toBe(200);
    expect(ran).toHaveLength(10_000);
    expect(new Set(ran.map((x) => x.payload.i)).size).toBe(10_000);

    let deep: unknown = { leaf: true };
    for (let d = 0; d < 500; d++) deep = { d };
    const big = [{ blob: 'x'.repeat(900_000) }, { deep }];
    expect((await put(srv.url, JSON.stringify(big), batchSig(big))).status).toBe(200);
    expect(ran).toHaveLength(10_002);
    expect((ran[10_000]!.payload.blob as string).length).toBe(900_000);
  });

  it('an element nested too deeply to serialize is 400 naming it (it was 500 on every retry, unreported); the batch runs nothing', async () => {
    const { ran, onPayload } = collector();
    const srv = await serve({
      destination: 'actions',
      secret: SECRET,
      insecureAcceptBatches: 'including-unsigned',
      onPayload,
    });
    for (const depth of [5_000, 100_000]) {
      const body = `[{"a":1},{"x":${'['.repeat(depth)}${']'.repeat(depth)}}]`;
      const r = await put(srv.url, body, null);
      expect([depth, r.status, r.json.code]).toEqual([depth, 400, 'invalid_payload']);
      expect(r.json.message).toMatch(/^Batch element 1 is nested too deeply/);
    }
    // Its first element was not claimed: it runs once the batch is fixed.
    expect((await put(srv.url, '[{"a":1}]', null)).status).toBe(200);
    expect(ran.map((r) => r.payload)).toEqual([{ a: 1 }]);
  });

  it('mixed event types in one batch go to on[type] or onPayload each', async () => {
    const seen: string[] = [];
    const srv = await serve({
      destination: 'actions',
      secret: SECRET,
      insecureAcceptBatches: true,
      on: { track: (e) => void seen.push(`track:${e.event}`) },
      onPayload: (p) => void seen.push(`payload:${JSON.stringify(p)}`),
    });
    const track = {
      type: 'track',
      event: 'Signed Up',
      messageId: 'mt',
      anonymousId: 'a1',
      timestamp: '2026-11-25T10:00:00.000Z',
      receivedAt: '2026-11-25T10:00:01.000Z',
    };
    const batch = [track, { type: 'identify', userId: 'u1' }, { orderId: 'o-1' }];
    expect((await put(srv.url, JSON.stringify(batch), batchSig(batch))).status).toBe(200);
    expect(seen).toEqual(['track:Signed Up', 'payload:{"type":"identify","userId":"u1"}', 'payload:{"orderId":"o-1"}']);
  });

  it('an unsigned batch: 401 with only signed batches accepted, 200 (every element uncovered) with including-unsigned; an uppercase first-element signature passes', async () => {
    const { ran, onPayload } = collector();
    const batch = [{ n: 1 }, { n: 2 }];
    let srv = await serve({ destination: 'actions', secret: SECRET, insecureAcceptBatches: true, onPayload });
    const unsigned = await put(srv.url, JSON.stringify(batch), null);
    expect([unsigned.status, unsigned.json.code]).toEqual([401, 'missing_signature']);
    expect(unsigned.json.message).toMatch(/including-unsigned/);
    expect((await put(srv.url, JSON.stringify(batch), batchSig(batch).toUpperCase())).status).toBe(200);
    srv = await serve({
      destination: 'actions',
      secret: SECRET,
      insecureAcceptBatches: 'including-unsigned',
      onPayload,
    });
    expect((await put(srv.url, JSON.stringify([{ n: 3 }, { n: 4 }]), null)).status).toBe(200);
    expect(ran.map((r) => [r.payload.n, r.batch?.signed, r.batch?.uncovered])).toEqual([
      [1, true, [1]],
      [2, false, [1]],
      [3, false, [0, 1]],
      [4, false, [0, 1]],
    ]);
  });

  it('a batch still running at the deadline: 503, the signal fires, and the retry runs only what was not handled', async () => {
    const ran: number[] = [];
    const aborted: number[] = [];
    const srv = await serve({
      destination: 'actions',
      secret: SECRET,
      deadlineMs: 400,
      insecureAcceptBatches: true,
      onPayload: async (p, ctx) => {
        const n = (p as { n: number }).n;
        if (n === 2 && !ran.includes(2)) {
          await new Promise<void>((resolve) =>
            ctx.signal.addEventListener('abort', () => (aborted.push(n), resolve())),
          );
        }
        ran.push(n);
      },
    });
    const batch = [{ n: 1 }, { n: 2 }, { n: 3 }];
    const first = await put(srv.url, JSON.stringify(batch), batchSig(batch));
    expect([first.status, first.json.code]).toEqual([503, 'deadline_exceeded']);
    await srv.receiver.drain();
    expect(aborted).toEqual([2]);
    expect(ran).toEqual([1, 2]);
    expect((await put(srv.url, JSON.stringify(batch), batchSig(batch))).status).toBe(200);
    expect(ran).toEqual([1, 2, 3]);
  });

  it('acknowledge mode with a failing element: 200, the failure reported, and the retry runs only that element', async () => {
    const errors: unknown[] = [];
    let failOnce = true;
    const ran: number[] = [];
    const srv = await serve({
      destination: 'actions',
      secret: SECRET,
      mode: 'acknowledge',
      insecureAcceptBatches: true,
      onError: (e) => void errors.push(e),
      onPayload: (p) => {
        const n = (p as { n: number }).n;
        if (n === 2 && failOnce) {
          failOnce = false;
          throw new Error('element 2 failed');
        }
        ran.push(n);
      },
    });
    const batch = [{ n: 1 }, { n: 2 }, { n: 3 }];
    expect((await put(srv.url, JSON.stringify(batch), batchSig(batch))).json.code).toBe('ok');
    await srv.receiver.drain();
    expect(ran).toEqual([1, 3]);
    expect(errors.map((e) => (e as Error).message)).toEqual(['element 2 failed']);
    expect((await put(srv.url, JSON.stringify(batch), batchSig(batch))).status).toBe(200);
    await srv.receiver.drain();
    expect(ran).toEqual([1, 3, 2]);
  });
});

describe('Actions schemas under attack', () => {
  const payload = (body: Record<string, unknown>) => JSON.stringify(body);

  it("a schema that drops messageId still dedupes by the body's messageId (the same id with another body ran twice)", async () => {
    const { ran, onPayload } = collector();
    const srv = await serve({
      destination: 'actions',
      secret: SECRET,
      schema: z.object({ orderId: z.string() }),
      onPayload,
    });
    expect((await put(srv.url, payload({ orderId: 'o-1', messageId: 'm-1' }))).status).toBe(200);
    const second = await put(srv.url, payload({ orderId: 'o-2', messageId: 'm-1' }));
    expect([second.status, second.json.code]).toEqual([200, 'duplicate']);
    expect(ran.map((r) => [r.payload, r.key])).toEqual([[{ orderId: 'o-1' }, 'id:m-1']]);
  });

  it('a transforming schema hands its output to onPayload; an async one works; issues without paths point at the root', async () => {
    const { ran, onPayload } = collector();
    let srv = await serve({
      destination: 'actions',
      secret: SECRET,
      schema: z.object({ total: z.string().transform(Number) }).transform((v) => ({ ...v, doubled: v.total * 2 })),
      onPayload,
    });
    expect((await put(srv.url, payload({ total: '21' }))).status).toBe(200);
    expect(ran[0]!.payload).toEqual({ total: 21, doubled: 42 });

    const asyncSchema = {
      '~standard': {
        version: 1 as const,
        vendor: 'attack',
        validate: async (value: unknown) => {
          await new Promise((r) => setTimeout(r, 5));
          return (value as { ok?: unknown }).ok === true
            ? { value: { ok: 'yes' } }
            : { issues: [{ message: 'not ok' }] };
        },
      },
    };
    srv = await serve({ destination: 'actions', secret: SECRET, schema: asyncSchema, onPayload });
    expect((await put(srv.url, payload({ ok: true }))).status).toBe(200);
    expect(ran[1]!.payload).toEqual({ ok: 'yes' });
    const refused = await put(srv.url, payload({ ok: false }));
    expect([refused.status, refused.json.issues]).toEqual([400, [{ path: '/', message: 'not ok' }]]);
  });

  it('an async schema still running at the deadline is answered 503 in time (the request hung as long as the schema did)', async () => {
    const { ran, onPayload } = collector();
    const never = {
      '~standard': { version: 1 as const, vendor: 'attack', validate: () => new Promise<never>(() => {}) },
    };
    const srv = await serve({
      destination: 'actions',
      secret: SECRET,
      deadlineMs: 500,
      insecureAcceptBatches: true,
      schema: never,
      onPayload,
    });
    for (const [body, signature, what] of [
      ['{"a":1}', hmac('{"a":1}'), 'the payload'],
      ['[{"a":1},{"a":2}]', hmac('{"a":1}'), 'the batch (element 0)'],
    ] as const) {
      const t0 = Date.now();
      const r = await put(srv.url, body, signature);
      expect([r.status, r.json.code]).toEqual([503, 'deadline_exceeded']);
      expect(r.json.message).toBe(`The schema did not finish checking ${what} within 500 ms; the sender will retry.`);
      expect(Date.now() - t0).toBeGreaterThanOrEqual(450);
      expect(Date.now() - t0).toBeLessThan(2_500);
    }
    expect(ran).toEqual([]);
  });

  it('Zod, Valibot and ArkType issue paths reach the 400 as JSON pointers, prefixed by the element index in a batch', async () => {
    const schemas = {
      zod: z.object({ items: z.array(z.object({ sku: z.string() })), 'a/b': z.number() }),
      valibot: v.object({ items: v.array(v.object({ sku: v.string() })), 'a/b': v.number() }),
      arktype: type({ items: type({ sku: 'string' }).array(), 'a/b': 'number' }),
    };
    const bad = { items: [{ sku: 'ok' }, { sku: 7 }], 'a/b': 1 };
    for (const [name, schema] of Object.entries(schemas)) {
      const srv = await serve({
        destination: 'actions',
        secret: SECRET,
        insecureAcceptBatches: true,
        schema,
        onPayload: () => {},
      });
      const one = await put(srv.url, JSON.stringify(bad));
      expect([name, one.status, (one.json.issues as { path: string }[]).map((i) => i.path)]).toEqual([
        name,
        400,
        ['/items/1/sku'],
      ]);
      const batch = [{ items: [], 'a/b': 1 }, bad, { items: [], 'a/b': 'x' }];
      const many = await put(srv.url, JSON.stringify(batch), batchSig(batch));
      expect([name, many.status, (many.json.issues as { path: string }[]).map((i) => i.path)]).toEqual([
        name,
        400,
        ['/1/items/1/sku', '/2/a~1b'],
      ]);
    }
  });

  it('a schema that throws answers 500 (the sender retries) and reports to onError; nothing runs', async () => {
    const { ran, onPayload } = collector();
    const errors: unknown[] = [];
    const phases: string[] = [];
    const srv = await serve({
      destination: 'actions',
      secret: SECRET,
      onError: (e, info) => void (errors.push(e), phases.push(info.phase)),
      schema: {
        '~standard': {
          version: 1,
          vendor: 'attack',
          validate: () => {
            throw new Error('schema exploded');
          },
        },
      },
      onPayload,
    });
    const r = await put(srv.url, payload({ a: 1 }));
    expect(r.status).toBe(500);
    expect(r.json.message).toBe('The schema failed while checking the payload (see onError); the sender will retry.');
    expect(errors.map((e) => (e as Error).message)).toEqual(['schema exploded']);
    expect(phases).toEqual(['handler']);
    expect(ran).toEqual([]);

    // The same inside an accepted batch.
    const srv2 = await serve({
      destination: 'actions',
      secret: SECRET,
      insecureAcceptBatches: true,
      onError: (e) => void errors.push(e),
      schema: {
        '~standard': {
          version: 1,
          vendor: 'attack',
          validate: () => {
            throw new Error('schema exploded in a batch');
          },
        },
      },
      onPayload,
    });
    const batch = [{ a: 1 }, { a: 2 }];
    const b = await put(srv2.url, JSON.stringify(batch), batchSig(batch));
    expect([b.status, b.json.code]).toEqual([500, 'handler_error']);
    expect(b.json.message).toBe(
      'The schema failed while checking batch element 0 (see onError); the sender will retry.',
    );
    expect(errors.map((e) => (e as Error).message)).toEqual(['schema exploded', 'schema exploded in a batch']);
    expect(ran).toEqual([]);
  });
});

describe('Actions single events under attack', () => {
  const whole = {
    type: 'track',
    event: 'Signed Up',
    messageId: 'm-1',
    anonymousId: 'a1',
    timestamp: '2026-11-25T10:00:00.000Z',
    receivedAt: '2026-11-25T10:00:01.000Z',
  };

  it('a whole event with the wrong type for event or properties is 400 naming each field; null in an optional field is accepted', async () => {
    const ran: unknown[] = [];
    const srv = await serve({
      destination: 'actions',
      secret: SECRET,
      on: { track: (e) => void ran.push(e) },
      onPayload: (p) => void ran.push(p),
    });
    const wrong = await put(srv.url, JSON.stringify({ ...whole, event: 42, properties: ['a'] }));
    expect([wrong.status, wrong.json.code]).toEqual([400, 'invalid_message']);
    expect(wrong.json.issues).toEqual([
      { path: '/event', message: 'must be string; got number' },
      { path: '/properties', message: 'must be object; got array' },
    ]);
    expect(ran).toEqual([]);
    // null where a field is optional (clients in other languages send it for what they leave out) is
    // the field left out: the event is handled, as it is, not lost to a final 400.
    const nullsEvent = {
      ...whole,
      messageId: 'm-nulls',
      userId: null,
      context: null,
      properties: null,
      integrations: null,
      sentAt: null,
    };
    const nulls = await put(srv.url, JSON.stringify(nullsEvent));
    expect([nulls.status, nulls.json.code]).toEqual([200, 'ok']);
    expect(ran).toEqual([nullsEvent]);
    // A required field is still required: null is not a messageId.
    const noId = await put(srv.url, JSON.stringify({ ...whole, messageId: null }));
    expect([noId.status, (noId.json.issues as { path: string }[]).map((i) => i.path)]).toEqual([400, ['/messageId']]);
  });

  it('the same messageId with another body is a duplicate: the first body ran, the second did not', async () => {
    const ran: unknown[] = [];
    const srv = await serve({ destination: 'actions', secret: SECRET, on: { track: (e) => void ran.push(e.event) } });
    expect((await put(srv.url, JSON.stringify(whole))).status).toBe(200);
    const second = await put(srv.url, JSON.stringify({ ...whole, event: 'Changed' }));
    expect([second.status, second.json.code]).toEqual([200, 'duplicate']);
    expect(ran).toEqual(['Signed Up']);
  });
});

describe('Actions secrets stay out of answers and logs', () => {
  it('with DEBUG on, no answer or log line holds the secret or a full signature', async () => {
    const lines: string[] = [];
    const logger = { warn: (l: string) => void lines.push(l), debug: (l: string) => void lines.push(l) };
    const srv = await serve({
      destination: 'actions',
      secret: SECRET,
      debug: true,
      logger,
      insecureAcceptBatches: true,
      onPayload: () => {},
    });
    const answers: string[] = [];
    const body = '{"orderId":"o-1","total":1.0}';
    const good = hmac('{"orderId":"o-1","total":1}');
    answers.push((await put(srv.url, body, good)).text); // re-encoded: 401 explained
    answers.push((await put(srv.url, '[{"a":1},{"b":2}]', good)).text); // batch, wrong first element
    answers.push((await put(srv.url, body, good.toUpperCase() + 'ff')).text); // malformed
    expect(answers.every((a) => a.includes('"ok":false'))).toBe(true);
    expect(lines.join('\n')).toMatch(/JSON\.stringify form/);
    for (const text of [...answers, ...lines]) {
      expect(text).not.toContain(SECRET);
      expect(text.toLowerCase()).not.toContain(good);
    }
  });
});
