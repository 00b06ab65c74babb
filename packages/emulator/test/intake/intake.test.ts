// The intake over real HTTP: tracking API routes, write keys, limits, call-by-call refusals, inspection.
import http from 'node:http';
import { gzipSync } from 'node:zlib';
import { createReceiver, messageIssues, toNodeListener, type WebhookMessage } from '@hookgate/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startHttpServer, type RunningServer } from '../../../../test/helpers/servers.js';
import { createEmulator, type Emulator } from '../../src/index.js';
import { listenIntake, MAX_BATCH_BYTES, MAX_CALL_BYTES, type IntakeServer } from '../../src/intake/index.js';

const SECRET = 'intake-secret';
const KEY = 'wk_intake_test';
const basic = (key: string) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;

let receiver: RunningServer;
let seen: Array<{ message: WebhookMessage; form: string }>;
let emulator: Emulator;
let intake: IntakeServer;

beforeEach(async () => {
  seen = [];
  const rx = createReceiver({
    secret: SECRET,
    onMessage: (message, ctx) => void seen.push({ message, form: ctx.verification.form }),
  });
  receiver = await startHttpServer(toNodeListener(rx));
  emulator = createEmulator({
    sources: [
      {
        writeKey: KEY,
        webhooks: { enabled: true, endpoints: [{ url: `${receiver.url}/webhooks` }], sharedSecret: SECRET },
      },
      { writeKey: 'wk_other', webhooks: { enabled: false, endpoints: [{ url: `${receiver.url}/other` }] } },
    ],
  });
  intake = await listenIntake(emulator);
});

afterEach(async () => {
  await intake.close();
  await emulator.close();
  await receiver.close();
});

async function post(path: string, body: unknown, headers: Record<string, string> = { authorization: basic(KEY) }) {
  const res = await fetch(`${intake.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return {
    status: res.status,
    body: (await res.json()) as {
      success: boolean;
      code?: string;
      message?: string;
      accepted?: number;
      issues?: Array<{ path: string; message: string }>;
      refused?: Array<{ index: number; recordId?: string; issues: Array<{ path: string; message: string }> }>;
    },
  };
}

/** Sends a raw request with node:http (chunked when no content-length is given). */
function rawPost(
  path: string,
  chunks: Buffer[],
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${intake.url}${path}`, { method: 'POST', headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    let i = 0;
    const writeNext = () => {
      if (i >= chunks.length) return void req.end();
      req.write(chunks[i++], () => setImmediate(writeNext));
    };
    writeNext();
  });
}

describe('intake: the tracking HTTP API', () => {
  it('listens on 127.0.0.1 by default and serves every call route, delivering verified messages in the seed shapes', async () => {
    expect(intake.host).toBe('127.0.0.1');
    expect(intake.url).toBe(`http://127.0.0.1:${intake.port}`);
    const calls: Record<string, Record<string, unknown>> = {
      identify: { userId: 'u1', traits: { email: 'ada@example.com' } },
      track: { userId: 'u1', event: 'Signed Up', properties: { plan: 'pro' } },
      page: { userId: 'u1', properties: { path: '/pricing', url: 'https://example.com/pricing' } },
      screen: { userId: 'u1', name: 'Home', context: { os: { name: 'iOS', version: '17.1' } } },
      group: { userId: 'u1', groupId: 'acme', traits: { plan: 'enterprise' } },
      alias: { userId: 'u1', previousId: 'anon_1' },
    };
    for (const [type, call] of Object.entries(calls)) {
      const r = await post(`/v1/${type}`, call);
      expect(r, type).toEqual({ status: 200, body: { success: true } });
    }
    await emulator.drain();
    expect(seen.map((s) => s.message.type)).toEqual(['identify', 'track', 'page', 'screen', 'group', 'alias']);
    for (const { message, form } of seen) {
      expect(messageIssues(message, { strictTimestamps: true })).toEqual([]);
      expect(form).toBe('raw');
    }
    const alias = seen[5]!.message as Record<string, unknown>;
    expect(alias).toMatchObject({ version: 1, type: 'alias', 'Previous ID': 'anon_1', 'User ID': 'u1' });
    expect(alias).not.toHaveProperty('userId');
    expect(seen[1]!.message).toMatchObject({
      type: 'track',
      userId: 'u1',
      event: 'Signed Up',
      properties: { plan: 'pro' },
    });
  });

  it('takes the write key from the body when there is no Authorization header (older clients)', async () => {
    const r = await post(
      '/v1/batch',
      { writeKey: KEY, batch: [{ type: 'track', userId: 'u2', event: 'Old Client' }] },
      {},
    );
    expect(r.status).toBe(200);
    await emulator.drain();
    expect(seen.map((s) => s.message)).toMatchObject([{ type: 'track', userId: 'u2', event: 'Old Client' }]);
    expect(seen[0]!.message).not.toHaveProperty('writeKey');
  });

  it('answers 401 for a missing, unknown or malformed write key, with the fix in the message', async () => {
    const missing = await post('/v1/track', { userId: 'u', event: 'E' }, {});
    expect(missing.status).toBe(401);
    expect(missing.body).toMatchObject({ success: false, code: 'missing_write_key' });
    expect(missing.body.message).toMatch(/Authorization: Basic.*writeKey/);
    const unknown = await post('/v1/track', { userId: 'u', event: 'E' }, { authorization: basic('wk_nope') });
    expect(unknown.status).toBe(401);
    expect(unknown.body).toMatchObject({ success: false, code: 'unknown_write_key' });
    expect(unknown.body.message).toMatch(/Unknown write key "wk_nope"/);
    const unknownInBody = await post('/v1/batch', { writeKey: 'wk_nope', batch: [] }, {});
    expect(unknownInBody.body.code).toBe('unknown_write_key');
    const bearer = await post('/v1/track', { userId: 'u', event: 'E' }, { authorization: 'Bearer abc' });
    expect(bearer.status).toBe(401);
    expect(bearer.body.code).toBe('invalid_authorization');
    await emulator.drain();
    expect(emulator.deliveries).toHaveLength(0);
  });

  it('routes each call to the source its write key names', async () => {
    expect(
      (await post('/v1/track', { userId: 'u', event: 'To Other' }, { authorization: basic('wk_other') })).status,
    ).toBe(200);
    expect(emulator.deliveries.map((r) => [r.writeKey, r.state])).toEqual([['wk_other', 'filtered']]);
    expect(emulator.usage('wk_other')).toBe(1);
    expect(emulator.usage(KEY)).toBe(0);
  });

  it("merges batch-level context and integrations into each call (the call's own keys win)", async () => {
    const r = await post('/v1/batch', {
      context: { ip: '203.0.113.9', locale: 'en-GB' },
      integrations: { All: false },
      batch: [
        { type: 'track', userId: 'u1', event: 'Kept', context: { locale: 'fr-FR' }, integrations: { Webhooks: true } },
        { type: 'track', userId: 'u1', event: 'Dropped by All:false' },
      ],
    });
    expect(r.status).toBe(200);
    await emulator.drain();
    expect(emulator.deliveries.map((d) => d.state)).toEqual(['delivered', 'filtered']);
    expect(emulator.deliveries[1]!.reason).toMatch(/All is false/);
    expect(seen).toHaveLength(1);
    expect((seen[0]!.message as { context?: unknown }).context).toEqual({ ip: '203.0.113.9', locale: 'fr-FR' });
  });

  it('treats /v1/import as /v1/batch and keeps historical timestamps, Go-style +0000 included', async () => {
    const r = await post('/v1/import', {
      batch: [{ type: 'identify', userId: 'u9', timestamp: '2009-11-10T23:00:00+0000', traits: { plan: 'x' } }],
    });
    expect(r.status).toBe(200);
    await emulator.drain();
    expect(seen[0]!.message).toMatchObject({ type: 'identify', userId: 'u9', timestamp: '2009-11-10T23:00:00.000Z' });
  });

  it('accepts a gzip-encoded body', async () => {
    const body = gzipSync(JSON.stringify({ batch: [{ type: 'track', userId: 'u1', event: 'Zipped' }] }));
    const r = await rawPost('/v1/batch', [body], {
      'content-type': 'application/json',
      'content-encoding': 'gzip',
      authorization: basic(KEY),
    });
    expect(r.status).toBe(200);
    await emulator.drain();
    expect(seen[0]!.message).toMatchObject({ event: 'Zipped' });
    const bad = await rawPost('/v1/batch', [Buffer.from('not gzip')], {
      'content-encoding': 'gzip',
      authorization: basic(KEY),
    });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body).code).toBe('invalid_encoding');
    const br = await rawPost('/v1/batch', [Buffer.from('{}')], { 'content-encoding': 'br', authorization: basic(KEY) });
    expect(br.status).toBe(415);
  });
});

describe('intake: limits and validation, call by call', () => {
  it('refuses a call over 32 KB alone, naming it, and accepts the rest of its batch; 400 when it is alone', async () => {
    const big = { type: 'track', userId: 'u1', event: 'Big', properties: { blob: 'x'.repeat(MAX_CALL_BYTES) } };
    const r = await post('/v1/batch', {
      batch: [{ type: 'track', userId: 'u1', event: 'Fine' }, { type: 'track', userId: 'u1', event: 'Fine 2' }, big],
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: true, accepted: 2 });
    expect(r.body.refused).toEqual([
      {
        index: 2,
        recordId: expect.stringMatching(/^dlv_/),
        issues: [
          { path: '$.batch[2]', message: expect.stringMatching(/^is \d+ bytes, over the limit of 32768 bytes/) },
        ],
      },
    ]);
    expect(r.body.message).toMatch(/^1 of 3 calls refused: \$\.batch\[2\] is \d+ bytes.*the other 2 were accepted/);
    await emulator.drain();
    expect(seen.map((s) => (s.message as { event?: string }).event)).toEqual(['Fine', 'Fine 2']);
    const refusedRecord = emulator.deliveries.find((d) => d.id === r.body.refused![0]!.recordId)!;
    expect(refusedRecord).toMatchObject({ state: 'filtered', type: 'track', body: '', attempts: [] });
    expect(refusedRecord.reason).toMatch(/^refused by the intake: \$\.batch\[2\] is \d+ bytes, over the limit/);
    const alone = await post('/v1/batch', { batch: [big] });
    expect(alone.status).toBe(400);
    expect(alone.body.code).toBe('call_too_large');
    expect(alone.body.message).toMatch(
      /\$\.batch\[0\] is \d+ bytes, over the limit of 32768 bytes.*Nothing of this batch was accepted/,
    );
    expect(alone.body.issues).toEqual([{ path: '$.batch[0]', message: expect.stringMatching(/over the limit/) }]);
    expect(alone.body.refused).toEqual([{ index: 0, recordId: expect.any(String), issues: alone.body.issues }]);
    const before = emulator.deliveries.length;
    // A call of exactly 32 KB passes.
    const exact = { type: 'track', userId: 'u1', event: 'E', properties: { blob: '' } };
    exact.properties.blob = 'x'.repeat(MAX_CALL_BYTES - Buffer.byteLength(JSON.stringify(exact)));
    expect(Buffer.byteLength(JSON.stringify(exact))).toBe(MAX_CALL_BYTES);
    expect(await post('/v1/batch', { batch: [exact] })).toEqual({ status: 200, body: { success: true } });
    expect(emulator.deliveries).toHaveLength(before + 1);
    // The single-call routes apply the same limit.
    const single = await post('/v1/track', {
      userId: 'u1',
      event: 'Big',
      properties: { blob: 'é'.repeat(MAX_CALL_BYTES / 2) },
    });
    expect(single.body).toMatchObject({ code: 'call_too_large', issues: [{ path: '$' }] });
  });

  it('refuses a body over 500 KB with 400, declared or streamed, without buffering it', async () => {
    const items = Array.from({ length: 20 }, (_, i) => ({
      type: 'track',
      userId: 'u1',
      event: `E${i}`,
      properties: { blob: 'y'.repeat(26_000) },
    }));
    const body = JSON.stringify({ batch: items });
    expect(Buffer.byteLength(body)).toBeGreaterThan(MAX_BATCH_BYTES);
    const declared = await post('/v1/batch', body);
    expect(declared.status).toBe(400);
    expect(declared.body.code).toBe('batch_too_large');
    expect(declared.body.message).toMatch(/512000 bytes/);
    // Chunked, no Content-Length: the intake stops reading past the limit.
    const buf = Buffer.from(body);
    const chunks = Array.from({ length: Math.ceil(buf.length / 65536) }, (_, i) =>
      buf.subarray(i * 65536, (i + 1) * 65536),
    );
    const streamed = await rawPost('/v1/batch', chunks, {
      'content-type': 'application/json',
      authorization: basic(KEY),
    });
    expect(streamed.status).toBe(400);
    expect(JSON.parse(streamed.body).code).toBe('batch_too_large');
    expect(emulator.deliveries).toHaveLength(0);
  });

  it('answers 400 for invalid JSON and for a malformed batch', async () => {
    const r = await post('/v1/batch', '{"batch": [');
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('invalid_json');
    const notArray = await post('/v1/batch', { batch: { type: 'track' } });
    expect(notArray.body).toMatchObject({
      code: 'invalid_batch',
      issues: [{ path: '$.batch', message: 'must be an array of calls (got an object)' }],
    });
    const array = await post('/v1/track', [1, 2]);
    expect(array.body.code).toBe('invalid_call');
  });

  it('lists every problem of every refused call (paths and fixes), delivers the valid ones, and records the refused', async () => {
    const r = await post('/v1/batch', {
      batch: [
        { type: 'identify', traits: { a: 1 } },
        { type: 'track', userId: 'u1' },
        { type: 'group', anonymousId: 'a1' },
        { type: 'alias', userId: 'u1' },
        { type: 'page' },
        { type: 'track', userId: 'u1', event: 'Valid' },
        { type: 'bogus', userId: 'u1' },
      ],
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: true, accepted: 1 });
    expect(r.body.refused!.map((x) => [x.index, x.issues])).toEqual([
      [0, [{ path: '$.batch[0].userId', message: 'userId or anonymousId is required' }]],
      [1, [{ path: '$.batch[1].event', message: 'is required' }]],
      [2, [{ path: '$.batch[2].groupId', message: 'is required' }]],
      [3, [{ path: '$.batch[3].previousId', message: 'is required' }]],
      [4, [{ path: '$.batch[4].userId', message: 'userId or anonymousId is required' }]],
      [6, [{ path: '$.batch[6].type', message: expect.stringMatching(/must be one of identify, track/) }]],
    ]);
    expect(r.body.message).toMatch(
      /^6 of 7 calls refused: \$\.batch\[0\]\.userId userId or anonymousId is required \(see refused for all 6\); the other 1 was accepted\.$/,
    );
    await emulator.drain();
    expect(seen.map((s) => s.message)).toMatchObject([{ type: 'track', event: 'Valid' }]);
    // Each refused call of a known type is in the log, filtered, with the intake's reason; an unknown type cannot be (no record type).
    expect(r.body.refused!.map((x) => x.recordId === undefined)).toEqual([false, false, false, false, false, true]);
    const refusedRecords = emulator.deliveries.filter((d) => d.reason?.startsWith('refused by the intake'));
    expect(refusedRecords.map((d) => [d.type, d.state, d.reason])).toEqual([
      ['identify', 'filtered', 'refused by the intake: $.batch[0].userId userId or anonymousId is required'],
      ['track', 'filtered', 'refused by the intake: $.batch[1].event is required'],
      ['group', 'filtered', 'refused by the intake: $.batch[2].groupId is required'],
      ['alias', 'filtered', 'refused by the intake: $.batch[3].previousId is required'],
      ['page', 'filtered', 'refused by the intake: $.batch[4].userId userId or anonymousId is required'],
    ]);
    // Every call refused: 400, as before, every problem listed, and nothing delivered.
    const all = await post('/v1/batch', {
      batch: [
        { type: 'track', userId: 'u1' },
        { type: 'track', event: 'E' },
      ],
    });
    expect(all.status).toBe(400);
    expect(all.body.code).toBe('invalid_call');
    expect(all.body.message).toMatch(/^2 of 2 calls invalid: .*Nothing of this batch was accepted/);
    expect(all.body.issues!.map((i) => i.path)).toEqual(['$.batch[0].event', '$.batch[1].userId']);
    await emulator.drain();
    expect(seen).toHaveLength(1);
  });

  it('checks single calls against their route, refusing a conflicting type', async () => {
    const r = await post('/v1/track', { type: 'identify', userId: 'u1' });
    expect(r.status).toBe(400);
    expect(r.body.issues).toEqual([
      { path: '$.type', message: expect.stringMatching(/must be "track" on \/v1\/track/) },
    ]);
    const missing = await post('/v1/group', { userId: 'u1' });
    expect(missing.body.issues).toEqual([{ path: '$.groupId', message: 'is required' }]);
  });

  it('answers 404 for other paths and 405 for other methods', async () => {
    const notFound = await fetch(`${intake.url}/v2/track`, { method: 'POST', body: '{}' });
    expect(notFound.status).toBe(404);
    expect(((await notFound.json()) as { message: string }).message).toMatch(/POST \/v1\/batch/);
    const get = await fetch(`${intake.url}/v1/batch`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
  });

  it('answers 503 (retry later) once the emulator is closed, accepting nothing', async () => {
    await emulator.close();
    const r = await post('/v1/batch', { batch: [{ type: 'track', userId: 'u1', event: 'Late' }] });
    expect(r.status).toBe(503);
    expect(r.body.code).toBe('emulator_closed');
    expect(emulator.deliveries).toHaveLength(0);
  });

  it('accepts an empty batch and delivers nothing', async () => {
    expect(await post('/v1/batch', { batch: [] })).toEqual({ status: 200, body: { success: true } });
    expect(emulator.deliveries).toHaveLength(0);
  });

  it('refuses bad listen options with a message naming the option', async () => {
    await expect(listenIntake(emulator, { port: 70000 })).rejects.toThrow(/port must be a whole number/);
    await expect(listenIntake(emulator, { maxCallBytes: 0 })).rejects.toThrow(/maxCallBytes/);
  });

  it('applies a smaller maxCallBytes and maxBatchBytes when given', async () => {
    const small = await listenIntake(emulator, { maxCallBytes: 100, maxBatchBytes: 1000 });
    try {
      const r1 = await fetch(`${small.url}/v1/track`, {
        method: 'POST',
        headers: { authorization: basic(KEY) },
        body: JSON.stringify({ userId: 'u1', event: 'x'.repeat(100) }),
      });
      expect(((await r1.json()) as { code: string }).code).toBe('call_too_large');
      const r2 = await fetch(`${small.url}/v1/batch`, {
        method: 'POST',
        headers: { authorization: basic(KEY) },
        body: 'x'.repeat(1001),
      });
      expect(((await r2.json()) as { code: string }).code).toBe('batch_too_large');
    } finally {
      await small.close();
    }
  });
});

describe('intake: inspection routes', () => {
  it('lists deliveries newest first, filtered by state and type, with signatures shortened', async () => {
    await post('/v1/batch', {
      batch: [
        { type: 'identify', userId: 'u1' },
        { type: 'track', userId: 'u1', event: 'A' },
        { type: 'track', userId: 'u1', event: 'B', integrations: { Webhooks: false } },
      ],
    });
    await emulator.drain();
    const all = (await (await fetch(`${intake.url}/_hookgate/deliveries`)).json()) as {
      total: number;
      deliveries: Array<{
        id: string;
        state: string;
        type: string;
        signature?: string;
        attempts: Array<{ requestHeaders: Record<string, string> }>;
      }>;
    };
    expect(all.total).toBe(3);
    expect(all.deliveries.map((d) => [d.type, d.state])).toEqual([
      ['track', 'filtered'],
      ['track', 'delivered'],
      ['identify', 'delivered'],
    ]);
    const full = emulator.deliveries[1]!.signature!;
    expect(full).toMatch(/^[0-9a-f]{40}$/);
    expect(all.deliveries[1]!.signature).toBe(`${full.slice(0, 6)}…(40 chars)`);
    const sent = all.deliveries[1]!.attempts[0]!.requestHeaders;
    const signatureHeader = Object.keys(sent).find((k) => k.toLowerCase() === 'x-signature')!;
    expect(sent[signatureHeader]).toBe(`${full.slice(0, 6)}…(40 chars)`);
    expect(JSON.stringify(all)).not.toContain(full);

    const delivered = (await (
      await fetch(`${intake.url}/_hookgate/deliveries?state=delivered&type=track`)
    ).json()) as typeof all;
    expect(delivered.deliveries.map((d) => d.id)).toEqual([emulator.deliveries[1]!.id]);
    const limited = (await (await fetch(`${intake.url}/_hookgate/deliveries?limit=1`)).json()) as typeof all;
    expect(limited).toMatchObject({ total: 3, count: 1 });
    const bad = await fetch(`${intake.url}/_hookgate/deliveries?state=done`);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { message: string }).message).toMatch(
      /state must be one of pending, delivered, failed, filtered/,
    );
  });

  it('answers health with counts per state', async () => {
    await post('/v1/track', { userId: 'u1', event: 'A' });
    await emulator.drain();
    const r = await fetch(`${intake.url}/_hookgate/health`);
    expect(r.status).toBe(200);
    expect(await r.json()).toMatchObject({
      ok: true,
      deliveries: { total: 1, delivered: 1, pending: 0, failed: 0, filtered: 0 },
    });
  });
});
