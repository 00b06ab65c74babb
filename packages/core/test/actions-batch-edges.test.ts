// Issue #30 items 6 and 10 (receiver part), over real HTTP (core's node listener): with
// insecureAcceptBatches, an uncovered element's claim of a messageId never blocks the later signed
// delivery of it; `null` elements (Segment's code keeps `null` where a mapping's data came out empty)
// are skipped and reported in ctx.batch, and a batch whose slot 0 is null is unsigned.
import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { startHttpServer, type RunningServer } from '../../../test/helpers/servers.js';
import { createReceiver, toNodeListener, type ActionsHandlerContext, type ReceiverOptions } from '../src/index.js';
import type { AnyReceiverOptions } from '../src/internal.js';

const SECRET = 'whsec_actions_batch_edges_7d2c';
const hmac = (text: string) => createHmac('sha1', SECRET).update(text).digest('hex');

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(options: AnyReceiverOptions): Promise<string> {
  const listener = toNodeListener(createReceiver(options as ReceiverOptions));
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

const track = (messageId: string, event: string) => ({
  type: 'track',
  event,
  userId: 'u-1',
  messageId,
  timestamp: '2026-11-27T10:00:00.000Z',
  receivedAt: '2026-11-27T10:00:01.000Z',
});

describe('uncovered claims do not block a later signed delivery (item 6)', () => {
  it('an uncovered element still running with a messageId does not hold back the signed event of that messageId, which runs its handler', async () => {
    const ran: Array<[string, string, boolean | undefined]> = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const url = await serve({
      destination: 'actions',
      secret: SECRET,
      insecureAcceptBatches: true,
      on: {
        track: async (event, ctx: ActionsHandlerContext) => {
          ran.push([event.messageId, event.event, ctx.batch?.signed]);
          if (event.event === 'Forged') await gate;
        },
      },
    });
    const captured = track('m-1', 'Captured');
    const batch = [captured, track('m-coming', 'Forged')];
    const forged = post(url, JSON.stringify(batch), hmac(JSON.stringify(captured)));
    await expect.poll(() => ran.length).toBe(2);
    // The uncovered element is in flight; the genuine event arrives, signed.
    const genuine = JSON.stringify(track('m-coming', 'Genuine'));
    const answer = await post(url, genuine, hmac(genuine));
    expect([answer.status, answer.json.code]).toEqual([200, 'ok']);
    release();
    expect((await forged).status).toBe(200);
    // And after the uncovered one was handled, a signed retry of it is a duplicate of the signed delivery only.
    expect((await post(url, genuine, hmac(genuine))).json.code).toBe('duplicate');
    expect(ran).toEqual([
      ['m-1', 'Captured', true],
      ['m-coming', 'Forged', false],
      ['m-coming', 'Genuine', undefined],
    ]);
  });
});

describe('null elements of a batch (item 10)', () => {
  function collector() {
    const ran: Array<{ n: unknown; batch: ActionsHandlerContext['batch'] }> = [];
    const onPayload = (payload: object, ctx: ActionsHandlerContext) =>
      void ran.push({ n: (payload as { n?: unknown }).n, batch: ctx.batch });
    return { ran, onPayload };
  }

  it('a signed batch with null elements: 200, the others run, the nulls are skipped and named in ctx.batch', async () => {
    const { ran, onPayload } = collector();
    const url = await serve({ destination: 'actions', secret: SECRET, insecureAcceptBatches: true, onPayload });
    const batch = [{ n: 0 }, null, { n: 2 }, null];
    const answer = await post(url, JSON.stringify(batch), hmac(JSON.stringify(batch[0])));
    expect([answer.status, answer.json.code]).toEqual([200, 'ok']);
    expect(ran.map((r) => [r.n, r.batch?.index, r.batch?.signed, r.batch?.skipped])).toEqual([
      [0, 0, true, [1, 3]],
      [2, 2, false, [1, 3]],
    ]);
  });

  it('slot 0 null: the batch is unsigned (401 unless including-unsigned, then every element uncovered)', async () => {
    const batch = [null, { n: 1 }];
    let url = await serve({ destination: 'actions', secret: SECRET, insecureAcceptBatches: true, onPayload: () => {} });
    const refused = await post(url, JSON.stringify(batch), null);
    expect([refused.status, refused.json.code]).toEqual([401, 'missing_signature']);
    expect(refused.json.message).toMatch(/including-unsigned/);
    await server?.close();
    const { ran, onPayload } = collector();
    url = await serve({
      destination: 'actions',
      secret: SECRET,
      insecureAcceptBatches: 'including-unsigned',
      onPayload,
    });
    const answer = await post(url, JSON.stringify(batch), null);
    expect([answer.status, answer.json.code]).toEqual([200, 'ok']);
    expect(ran.map((r) => [r.n, r.batch?.signed, r.batch?.skipped])).toEqual([[1, false, [0]]]);
    // Every element null: nothing to run, nothing lost.
    const empty = await post(url, '[null,null]', null);
    expect([empty.status, empty.json.code]).toEqual([200, 'ok']);
    expect(ran).toHaveLength(1);
  });
});
