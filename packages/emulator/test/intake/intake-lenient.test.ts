// The intake is as lenient as the tracking API, call by call, over real HTTP: null is absent,
// numeric ids become strings, timestamps follow one documented rule, and a bad call is refused alone
// (named in the answer, recorded in the log) while the rest of its batch is delivered.
import { readFileSync } from 'node:fs';
import { createReceiver, messageIssues, toNodeListener, type WebhookMessage } from '@hookgate/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startHttpServer, type RunningServer } from '../../../../test/helpers/servers.js';
import { createEmulator, NO_USER_ID_REASON, type Emulator, type EmulatorOptions } from '../../src/index.js';
import { listenIntake, type IntakeServer } from '../../src/intake/index.js';

const SECRET = 'lenient-secret';
const KEY = 'wk_lenient';
const basic = `Basic ${Buffer.from(`${KEY}:`).toString('base64')}`;

let receiver: RunningServer;
let seen: WebhookMessage[];
let emulator: Emulator;
let intake: IntakeServer;

async function start(options: Partial<EmulatorOptions> = {}) {
  seen = [];
  const rx = createReceiver({ secret: SECRET, onMessage: (message) => void seen.push(message) });
  receiver = await startHttpServer(toNodeListener(rx));
  emulator = createEmulator({
    ...options,
    sources: [
      {
        writeKey: KEY,
        webhooks: { enabled: true, endpoints: [{ url: `${receiver.url}/webhooks` }], sharedSecret: SECRET },
      },
      { writeKey: 'wk_off', webhooks: { enabled: false, endpoints: [{ url: `${receiver.url}/off` }] } },
    ],
  });
  intake = await listenIntake(emulator);
}

beforeEach(() => start());

afterEach(async () => {
  await intake.close();
  await emulator.close();
  await receiver.close();
});

interface Answer {
  status: number;
  body: {
    success: boolean;
    code?: string;
    message?: string;
    accepted?: number;
    issues?: Array<{ path: string; message: string }>;
    refused?: Array<{ index: number; recordId?: string; issues: Array<{ path: string; message: string }> }>;
  };
}

async function post(path: string, body: string | object): Promise<Answer> {
  const res = await fetch(`${intake.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: basic },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Answer['body'] };
}

const byEvent = () =>
  new Map(
    seen
      .filter((m) => m.type === 'track')
      .map((m) => [(m as { event: string }).event, m as unknown as Record<string, unknown>]),
  );

describe('null is absent', () => {
  it('in every optional top-level field of every call type, and in the batch-level fields', async () => {
    const nulls = {
      anonymousId: null,
      messageId: null,
      timestamp: null,
      context: null,
      integrations: null,
      sentAt: null,
      writeKey: null,
    };
    const body = `{"batch":[
      ${JSON.stringify({ type: 'identify', userId: 'u1', traits: null, ...nulls })},
      ${JSON.stringify({ type: 'track', userId: 'u1', event: 'E', properties: null, ...nulls })},
      ${JSON.stringify({ type: 'page', userId: 'u1', name: null, category: null, properties: null, ...nulls })},
      ${JSON.stringify({ type: 'screen', userId: 'u1', name: 'Home', category: null, properties: null, ...nulls })},
      ${JSON.stringify({ type: 'group', userId: 'u1', groupId: 'g1', traits: null, ...nulls })},
      ${JSON.stringify({ type: 'alias', userId: 'u1', previousId: 'p1', ...nulls })}
    ],"context":null,"integrations":null,"writeKey":null,"sentAt":null,"messageId":null}`;
    const r = await post('/v1/batch', body);
    expect(r).toEqual({ status: 200, body: { success: true } });
    await emulator.drain();
    expect(seen.map((m) => m.type).sort()).toEqual(['alias', 'group', 'identify', 'page', 'screen', 'track']);
    for (const m of seen) {
      expect(messageIssues(m, { strictTimestamps: true })).toEqual([]);
      expect(Object.values(m)).not.toContain(null);
    }
  });

  it('on the single-call routes too (type: null included)', async () => {
    const r = await post(
      '/v1/track',
      '{"type":null,"userId":"u1","anonymousId":null,"event":"Single","properties":null,"timestamp":null}',
    );
    expect(r).toEqual({ status: 200, body: { success: true } });
    await emulator.drain();
    expect(seen).toMatchObject([{ type: 'track', userId: 'u1', event: 'Single' }]);
  });

  it('userId null beside an anonymousId makes an anonymous call, handled by the anonymousCalls option', async () => {
    const body = { batch: [{ type: 'track', userId: null, anonymousId: 'anon_1', event: 'Anon' }] };
    expect((await post('/v1/batch', body)).status).toBe(200);
    await emulator.drain();
    expect(emulator.deliveries[0]).toMatchObject({ state: 'filtered', reason: NO_USER_ID_REASON });
    await intake.close();
    await emulator.close();
    await receiver.close();
    await start({ anonymousCalls: 'anonymousId-as-userId' });
    expect((await post('/v1/batch', body)).status).toBe(200);
    await emulator.drain();
    expect(seen).toMatchObject([{ type: 'track', userId: 'anon_1', event: 'Anon' }]);
  });

  it('a required field that is null refuses that call alone, naming the path; the batch survives', async () => {
    const r = await post('/v1/batch', {
      batch: [
        { type: 'track', userId: 'u1', event: 'Before' },
        { type: 'track', userId: 'u1', event: null },
        { type: 'group', userId: 'u1', groupId: null },
        { type: 'alias', userId: 'u1', previousId: null },
        { type: 'track', userId: 'u1', event: 'After' },
      ],
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: true, accepted: 2 });
    expect(r.body.refused!.map((x) => x.issues)).toEqual([
      [{ path: '$.batch[1].event', message: 'is required (got null)' }],
      [{ path: '$.batch[2].groupId', message: 'is required (got null)' }],
      [{ path: '$.batch[3].previousId', message: 'is required (got null)' }],
    ]);
    await emulator.drain();
    expect([...byEvent().keys()].sort()).toEqual(['After', 'Before']);
    // Visible in the inspection route, with the reason.
    const view = (await (await fetch(`${intake.url}/_hookgate/deliveries?state=filtered`)).json()) as {
      deliveries: Array<{ id: string; type: string; reason: string }>;
    };
    expect(view.deliveries.map((d) => [d.id, d.type, d.reason]).reverse()).toEqual([
      [r.body.refused![0]!.recordId, 'track', 'refused by the intake: $.batch[1].event is required (got null)'],
      [r.body.refused![1]!.recordId, 'group', 'refused by the intake: $.batch[2].groupId is required (got null)'],
      [r.body.refused![2]!.recordId, 'alias', 'refused by the intake: $.batch[3].previousId is required (got null)'],
    ]);
  });

  it('an item that is null itself is refused alone (named, not recorded: it has no type)', async () => {
    const r = await post('/v1/batch', '{"batch":[null,{"type":"track","userId":"u1","event":"Kept"}]}');
    expect(r.status).toBe(200);
    expect(r.body.refused).toEqual([
      { index: 0, issues: [{ path: '$.batch[0]', message: 'must be a JSON object (got null)' }] },
    ]);
    await emulator.drain();
    expect(seen).toMatchObject([{ event: 'Kept' }]);
    expect(emulator.deliveries).toHaveLength(1);
  });
});

describe('numbers where strings are expected', () => {
  it('numeric ids and names become their decimal strings', async () => {
    const r = await post(
      '/v1/batch',
      '{"batch":[{"type":"identify","userId":42,"anonymousId":7},{"type":"group","userId":42,"groupId":9},{"type":"alias","userId":42,"previousId":3},{"type":"track","userId":-1.5,"event":404},{"type":"screen","userId":0,"name":5}]}',
    );
    expect(r).toEqual({ status: 200, body: { success: true } });
    await emulator.drain();
    const byType = new Map(seen.map((m) => [m.type, m as unknown as Record<string, unknown>]));
    expect(byType.get('identify')).toMatchObject({ userId: '42' });
    expect(byType.get('group')).toMatchObject({ userId: '42', groupId: '9' });
    expect(byType.get('alias')).toMatchObject({ 'User ID': '42', 'Previous ID': '3' });
    expect(byType.get('track')).toMatchObject({ userId: '-1.5', event: '404' });
    expect(byType.get('screen')).toMatchObject({ userId: '0', name: '5' });
  });

  it('an integer too large to keep exactly is refused with the fix (send it as a string), not rounded', async () => {
    const r = await post(
      '/v1/batch',
      '{"batch":[{"type":"track","userId":12345678901234567890,"event":"Big"},{"type":"track","userId":9007199254740991,"event":"Max safe"},{"type":"track","userId":"12345678901234567890","event":"As string"}]}',
    );
    expect(r.status).toBe(200);
    expect(r.body.refused).toEqual([
      {
        index: 0,
        recordId: expect.any(String),
        issues: [
          {
            path: '$.batch[0].userId',
            message: expect.stringMatching(/too large to keep exactly .*send it as a string/),
          },
        ],
      },
    ]);
    await emulator.drain();
    expect(byEvent().get('Max safe')).toMatchObject({ userId: '9007199254740991' });
    expect(byEvent().get('As string')).toMatchObject({ userId: '12345678901234567890' });
  });

  it('booleans, objects and arrays where a string is expected refuse that call alone', async () => {
    const r = await post('/v1/batch', {
      batch: [
        { type: 'track', userId: true, event: 'Bool id' },
        { type: 'track', userId: 'u1', event: { name: 'x' } },
        { type: 'group', userId: 'u1', groupId: ['g'] },
        { type: 'track', userId: 'u1', event: 'Fine', properties: 'not an object' },
        { type: 'track', userId: 'u1', event: 'Kept' },
      ],
    });
    expect(r.status).toBe(200);
    expect(r.body.refused!.map((x) => [x.index, x.issues.map((i) => i.path)])).toEqual([
      [0, ['$.batch[0].userId']],
      [1, ['$.batch[1].event']],
      [2, ['$.batch[2].groupId']],
      [3, ['$.batch[3].properties']],
    ]);
    expect(r.body.refused![0]!.issues[0]!.message).toMatch(/must be a string \(got boolean true\)/);
    await emulator.drain();
    expect([...byEvent().keys()]).toEqual(['Kept']);
  });
});

describe('empty strings', () => {
  it('an empty userId beside an anonymousId is anonymous; both empty is refused; an empty event is kept', async () => {
    await intake.close();
    await emulator.close();
    await receiver.close();
    await start({ anonymousCalls: 'anonymousId-as-userId' });
    const r = await post('/v1/batch', {
      batch: [
        { type: 'track', userId: '', anonymousId: 'anon_2', event: 'Empty user' },
        { type: 'track', userId: '', anonymousId: '', event: 'No one' },
        { type: 'track', userId: 'u1', event: '' },
      ],
    });
    expect(r.status).toBe(200);
    expect(r.body.refused).toEqual([
      {
        index: 1,
        recordId: expect.any(String),
        issues: [{ path: '$.batch[1].userId', message: 'userId or anonymousId is required' }],
      },
    ]);
    await emulator.drain();
    expect(byEvent().get('Empty user')).toMatchObject({ userId: 'anon_2' });
    expect(byEvent().get('')).toMatchObject({ userId: 'u1', event: '' });
  });
});

describe("timestamps: one documented rule, delivered in the seed's UTC-with-milliseconds form", () => {
  it('reads every documented form and refuses the call whose time is none', async () => {
    const forms: Array<[string, unknown, string]> = [
      ['zone-less', '2026-11-24T10:00:00', '2026-11-24T10:00:00.000Z'],
      ['zone-less micro', '2026-11-24T10:00:00.123456', '2026-11-24T10:00:00.123Z'],
      ['micro +00:00', '2026-11-24T10:00:00.123456+00:00', '2026-11-24T10:00:00.123Z'],
      ['+0000', '2026-11-24T10:00:00+0000', '2026-11-24T10:00:00.000Z'],
      ['-0800', '2026-11-24T02:00:00.5-0800', '2026-11-24T10:00:00.500Z'],
      ['nanoseconds', '2026-11-24T10:00:00.123456789Z', '2026-11-24T10:00:00.123Z'],
      ['epoch ms', 1764000000123, '2025-11-24T16:00:00.123Z'],
      ['epoch ms string', '1764000000123', '2025-11-24T16:00:00.123Z'],
      ['date only', '2026-11-24', '2026-11-24T00:00:00.000Z'],
      ['space', '2026-11-24 10:00:00', '2026-11-24T10:00:00.000Z'],
    ];
    const batch = forms.map(([event, timestamp]) => ({ type: 'track', userId: 'u1', event, timestamp }));
    batch.push({ type: 'track', userId: 'u1', event: 'garbage', timestamp: 'next tuesday' });
    batch.push({ type: 'track', userId: 'u1', event: 'huge', timestamp: 1e20 });
    const r = await post('/v1/import', { batch });
    expect(r.status).toBe(200);
    expect(r.body.refused!.map((x) => x.issues)).toEqual([
      [
        {
          path: `$.batch[${forms.length}].timestamp`,
          message: expect.stringMatching(
            /ISO 8601 .*no zone is read as UTC.*epoch milliseconds \(got string "next tuesday"\)/,
          ),
        },
      ],
      [
        {
          path: `$.batch[${forms.length + 1}].timestamp`,
          message: expect.stringMatching(/got number 100000000000000000000/),
        },
      ],
    ]);
    await emulator.drain();
    const got = byEvent();
    for (const [event, , expected] of forms) expect(got.get(event), event).toMatchObject({ timestamp: expected });
  });
});

describe('neighbours of a good request', () => {
  it('the same official body sent 50 times at once: every call of every request delivered', async () => {
    // The intake's messageId dedupe off: this is about 50 concurrent requests sharing buffers (intake-dedupe.test.ts covers the dedupe).
    await intake.close();
    await emulator.close();
    await receiver.close();
    await start({ dedupe: false });
    const raw = readFileSync(new URL('../fixtures/official-clients/python-analytics-python.json', import.meta.url));
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        fetch(`${intake.url}/v1/batch`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: basic },
          body: raw,
        }).then(async (res) => [res.status, await res.text()]),
      ),
    );
    expect(answers.every(([s, b]) => s === 200 && b === '{"success":true}')).toBe(true);
    await emulator.drain();
    // 300 calls delivered (each answered 2xx); the receiver ran its handler once per distinct body (its dedupe).
    expect(emulator.deliveryCounts()).toMatchObject({ total: 300, delivered: 300, filtered: 0, failed: 0 });
    expect(seen).toHaveLength(6);
  });

  it('the same body re-encoded (every character \\u-escaped) is read the same', async () => {
    const plain =
      '{"batch":[{"type":"track","userId":42,"anonymousId":null,"event":"Re-encoded","timestamp":"2026-11-24T10:00:00.123456+00:00"}]}';
    const escaped = plain.replace(
      /"([^"]*)"/g,
      (_, s: string) => `"${[...s].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}"`,
    );
    expect(JSON.parse(escaped)).toEqual(JSON.parse(plain));
    expect((await post('/v1/batch', escaped)).status).toBe(200);
    await emulator.drain();
    expect(seen).toMatchObject([
      { type: 'track', userId: '42', event: 'Re-encoded', timestamp: '2026-11-24T10:00:00.123Z' },
    ]);
  });

  it('a filtered call of a partly refused batch keeps what it said: its message, built later from the kept bytes, is the right call, read leniently', async () => {
    const res = await fetch(`${intake.url}/v1/batch`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Basic ${Buffer.from('wk_off:').toString('base64')}`,
      },
      body: '{"batch":[{"type":"track","userId":"u1","event":null},{"type":"track","userId":7,"anonymousId":null,"event":"Second","timestamp":"2026-11-24T10:00:00.123456"},{"type":"identify","userId":8,"traits":null,"timestamp":1764000000123}]}',
    });
    expect(res.status).toBe(200);
    // Later requests reuse buffers; the filtered records must still rebuild their own calls.
    for (let i = 0; i < 5; i++)
      await post('/v1/batch', { batch: [{ type: 'track', userId: 'other', event: `Later ${i}` }] });
    const off = emulator.deliveries.filter((d) => d.writeKey === 'wk_off');
    expect(off.map((d) => [d.type, d.state])).toEqual([
      ['track', 'filtered'],
      ['track', 'filtered'],
      ['identify', 'filtered'],
    ]);
    expect(off[0]!.reason).toBe('refused by the intake: $.batch[0].event is required (got null)');
    expect(off[0]!.message).toBeUndefined();
    expect(off[1]!.message).toMatchObject({
      type: 'track',
      userId: '7',
      event: 'Second',
      timestamp: '2026-11-24T10:00:00.123Z',
    });
    expect(off[2]!.message).toMatchObject({ type: 'identify', userId: '8', timestamp: '2025-11-24T16:00:00.123Z' });
    expect(off[2]!.message).not.toHaveProperty('traits');
  });
});
