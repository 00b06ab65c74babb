// Webhooks (Actions) batches and the dedupe store, over real HTTP (core's node listener): without a store every
// element runs each time; a batch handled before is answered duplicate; an element being handled elsewhere is
// 503 in_flight naming it and a store that fails 503 store_unavailable (phase store), each releasing the claims
// the batch made, so the sender's retry runs every element.
import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { startHttpServer, type RunningServer } from '../../../test/helpers/servers.js';
import { RecordingStore } from './helpers/recording-store.js';
import {
  MemoryIdempotencyStore,
  createReceiver,
  toNodeListener,
  type ReceiverErrorInfo,
  type ReceiverOptions,
} from '../src/index.js';

const SECRET = 'whsec_batch_claims_51e0';
const hmac = (text: string) => createHmac('sha1', SECRET).update(text).digest('hex');

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(options: Record<string, unknown>): Promise<string> {
  const listener = toNodeListener(
    createReceiver({
      destination: 'actions',
      secret: SECRET,
      insecureAcceptBatches: true,
      ...options,
    } as unknown as ReceiverOptions),
  );
  server = await startHttpServer((req, res) => void listener(req, res));
  return server.url;
}

const event = (messageId: string) => ({
  type: 'track',
  event: 'Ordered',
  userId: 'u-1',
  messageId,
  timestamp: '2026-11-27T10:00:00.000Z',
  receivedAt: '2026-11-27T10:00:01.000Z',
});

/** Posts a batch signed over its first element, as Segment's code signs it. */
async function postBatch(url: string, batch: unknown[]) {
  const r = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-signature': hmac(JSON.stringify(batch[0])) },
    body: JSON.stringify(batch),
  });
  return { status: r.status, json: (await r.json()) as Record<string, unknown> };
}

describe('batches and the dedupe store', () => {
  it('dedupe: false runs every element of every delivery (nulls skipped)', async () => {
    const ran: string[] = [];
    const url = await serve({ dedupe: false, on: { track: (e: { messageId: string }) => void ran.push(e.messageId) } });
    const batch = [event('n1'), null, event('n2')];
    expect((await postBatch(url, batch)).status).toBe(200);
    expect((await postBatch(url, batch)).status).toBe(200);
    expect(ran).toEqual(['n1', 'n2', 'n1', 'n2']);
  });

  it('a batch whose every element was handled → 200 duplicate, nothing runs again', async () => {
    const ran: string[] = [];
    const url = await serve({ on: { track: (e: { messageId: string }) => void ran.push(e.messageId) } });
    const batch = [event('d1'), event('d2')];
    expect((await postBatch(url, batch)).json.code).toBe('ok');
    const again = await postBatch(url, batch);
    expect([again.status, again.json]).toEqual([
      200,
      {
        ok: true,
        code: 'duplicate',
        message: 'Every event of this batch was handled before; not run again.',
        duplicate: true,
      },
    ]);
    expect(ran).toEqual(['d1', 'd2']);
  });

  it('an element being handled elsewhere → 503 in_flight naming it; the claims made are released for the retry', async () => {
    const store = new MemoryIdempotencyStore();
    const ran: string[] = [];
    const url = await serve({
      dedupe: { store },
      on: { track: (e: { messageId: string }) => void ran.push(e.messageId) },
    });
    // Another instance holds the signed claim of the second element's messageId.
    store.claim('id:f2', 60_000);
    const batch = [event('f1'), event('f2')];
    const busy = await postBatch(url, batch);
    expect([busy.status, busy.json]).toEqual([
      503,
      { ok: false, code: 'in_flight', message: 'Batch element 1 is being handled right now; the sender will retry.' },
    ]);
    expect(ran).toEqual([]);
    // The other instance finished: the retry runs element 0 (its claim was released) and skips element 1.
    store.complete('id:f2', 60_000);
    expect((await postBatch(url, batch)).status).toBe(200);
    expect(ran).toEqual(['f1']);
  });

  it('a store that fails → 503 store_unavailable, onError (phase store), the claims made released', async () => {
    const store = new RecordingStore();
    store.failClaim = (key) => key.includes('uncovered');
    const reported: ReceiverErrorInfo[] = [];
    const ran: string[] = [];
    const url = await serve({
      dedupe: { store },
      onError: (_e: unknown, info: ReceiverErrorInfo) => void reported.push(info),
      on: { track: (e: { messageId: string }) => void ran.push(e.messageId) },
    });
    const batch = [event('s1'), event('s2')];
    const down = await postBatch(url, batch);
    expect([down.status, down.json]).toEqual([
      503,
      { ok: false, code: 'store_unavailable', message: 'The dedupe store is unavailable; the sender will retry.' },
    ]);
    expect(reported).toHaveLength(1);
    expect(reported[0]).toMatchObject({ phase: 'store' });
    expect(reported[0]!.dedupeKey).toContain('id:s2');
    expect(ran).toEqual([]);
    store.failClaim = () => false;
    expect((await postBatch(url, batch)).status).toBe(200);
    expect(ran).toEqual(['s1', 's2']);
  });

  it('an element repeated in one batch runs once; a signed delivery handled before is skipped inside a batch', async () => {
    const ran: string[] = [];
    const url = await serve({ on: { track: (e: { messageId: string }) => void ran.push(e.messageId) } });
    const single = JSON.stringify(event('r2'));
    await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-signature': hmac(single) },
      body: single,
    });
    expect(ran).toEqual(['r2']);
    const batch = [event('r1'), event('r2'), event('r1'), event('r3')];
    expect((await postBatch(url, batch)).status).toBe(200);
    expect(ran).toEqual(['r2', 'r1', 'r3']);
    // Skipping it inside the batch left the signed delivery's record in place: its retry is still a duplicate.
    const retry = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-signature': hmac(single) },
      body: single,
    });
    expect(((await retry.json()) as { code: string }).code).toBe('duplicate');
    expect(ran).toEqual(['r2', 'r1', 'r3']);
  });

  it('claims the present elements only, each uncovered one in its own namespace, and reads the signed one without keeping it', async () => {
    const store = new RecordingStore();
    const url = await serve({ dedupe: { store, ttlMs: 9_000, inFlightTtlMs: 900 }, on: { track: () => {} } });
    expect((await postBatch(url, [event('p0'), null, event('p2')])).status).toBe(200);
    expect(store.log).toEqual([
      'claim id:p0 900',
      'claim uncovered:id:p2 900',
      'claim id:p2 900',
      'release id:p2',
      'complete id:p0 9000',
      'complete uncovered:id:p2 9000',
    ]);
  });

  it("an element whose uncovered claim is in flight elsewhere → 503 naming it; that claim is left alone, only this batch's own released", async () => {
    const store = new RecordingStore();
    const ran: string[] = [];
    const url = await serve({
      dedupe: { store },
      on: { track: (e: { messageId: string }) => void ran.push(e.messageId) },
    });
    // Another instance is running the same uncovered element of another batch.
    store.inner.claim('uncovered:id:h1', 60_000);
    const busy = await postBatch(url, [event('h0'), event('h1')]);
    expect([busy.status, busy.json]).toEqual([
      503,
      { ok: false, code: 'in_flight', message: 'Batch element 1 is being handled right now; the sender will retry.' },
    ]);
    expect(store.log.filter((call) => call.startsWith('release '))).toEqual(['release id:h0']);
    expect(store.inner.claim('uncovered:id:h1', 60_000)).toBe('in-flight');
    expect(ran).toEqual([]);
  });

  it('a store that fails on a claim releases nothing it did not take: another holder keeps its claim', async () => {
    const store = new RecordingStore();
    store.failClaim = (key) => key === 'id:z0';
    const url = await serve({ dedupe: { store }, onError: () => {}, on: { track: () => {} } });
    // Another instance holds the claim the failing call was about.
    store.inner.claim('id:z0', 60_000);
    expect((await postBatch(url, [event('z0'), event('z1')])).json.code).toBe('store_unavailable');
    expect(store.inner.claim('id:z0', 60_000)).toBe('in-flight');
  });

  it('a store failing on the read of the signed namespace → 503, and the uncovered claim just made is released for the retry', async () => {
    const store = new RecordingStore();
    store.failClaim = (key) => key === 'id:k1';
    const ran: string[] = [];
    const url = await serve({
      dedupe: { store },
      onError: () => {},
      on: { track: (e: { messageId: string }) => void ran.push(e.messageId) },
    });
    const batch = [event('k0'), event('k1')];
    expect((await postBatch(url, batch)).json.code).toBe('store_unavailable');
    store.failClaim = () => false;
    expect((await postBatch(url, batch)).status).toBe(200);
    expect(ran).toEqual(['k0', 'k1']);
  });
});
