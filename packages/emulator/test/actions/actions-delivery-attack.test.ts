// Attacks on how Webhooks (Actions) requests are delivered, kept and shown: a URL carrying credentials
// and a query token (used for the request, masked everywhere else), retries and replays of a batch
// (the same bytes and signature each time), drain() and close() with open batches (nothing lost), and
// the inspector's JSON never showing the shared secret or a whole signature. Real HTTP on 127.0.0.1.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEmulator, ManualClock } from '../../src/index.js';
import { formatFilteredLine, formatSummary } from '../../src/cli/serve-summary.js';
import { startCaptureReceiver, type CaptureReceiver, type Received } from '../helpers/capture-receiver.js';
import { segmentOnEvent } from '../../../../test/helpers/segment-actions-sender.js';

const SECRET = 'delivery-attack-shared-s3cret';
const PASSWORD = 'pa55-w0rd-Xq';
const TOKEN = 'qt0k3n-Zz9';
let receiver: CaptureReceiver;

beforeAll(async () => {
  receiver = await startCaptureReceiver();
});
afterAll(() => receiver.close());
beforeEach(() => {
  receiver.received.length = 0;
  receiver.answer(() => 200);
});

const secretUrl = () =>
  receiver.url.replace('http://', `http://hook-user:${PASSWORD}@`) + `/in?token=${TOKEN}&team=growth`;

function sub(mapping: Record<string, unknown>, subscribe = 'type = "track"') {
  return {
    subscribe,
    partnerAction: 'send' as const,
    mapping: { url: `${receiver.url}/in`, method: 'PUT', ...mapping },
  };
}

describe('a URL with credentials and a query token', () => {
  it("is used for the request as Segment's code uses it, and masked in records, views, debug lines and errors", async () => {
    const debug: string[] = [];
    const url = secretUrl();
    const emulator = createEmulator({
      debug: (l) => debug.push(l),
      sources: [
        {
          writeKey: 'wk',
          webhooksActions: { sharedSecret: SECRET, subscriptions: [sub({ url, data: { '@path': '$.properties' } })] },
        },
      ],
    });
    const intake = await emulator.listen({ port: 0, host: '127.0.0.1' });
    try {
      const record = emulator.track({ userId: 'u1', event: 'E', messageId: 'm-url', properties: { a: 1 } });
      await emulator.drain();
      const [got] = receiver.received;
      expect(got?.url).toBe(`/in?token=${TOKEN}&team=growth`);
      // Segment's code, same subscription and event.
      receiver.received.length = 0;
      const event = { type: 'track', userId: 'u1', event: 'E', messageId: 'm-url', properties: { a: 1 } };
      await segmentOnEvent(event, {
        sharedSecret: SECRET,
        subscription: { ...sub({ url, data: { '@path': '$.properties' } }), enabled: true },
      });
      const [real] = receiver.received;
      expect(got!.url).toBe(real!.url);
      expect(got!.headers.authorization).toBe(real!.headers.authorization);
      expect(got!.text).toBe(real!.text);

      const shown = [
        JSON.stringify(emulator.deliveries),
        JSON.stringify(record),
        JSON.stringify(emulator.sources),
        debug.join('\n'),
        await (await fetch(`${intake.url}/_hookgate/ui/api/deliveries`)).text(),
        await (await fetch(`${intake.url}/_hookgate/ui/api/deliveries/${record.id}`)).text(),
      ];
      const basic = Buffer.from(`hook-user:${PASSWORD}`).toString('base64');
      for (const text of shown) {
        expect(text).not.toContain(basic);
        expect(text).not.toContain(got!.headers['x-signature'] as string);
        expect(text).not.toContain(PASSWORD);
        expect(text).not.toContain(TOKEN);
        expect(text).not.toContain(SECRET);
      }
      expect(JSON.stringify(emulator.deliveries)).toContain('hook-user');
    } finally {
      await intake.close();
      await emulator.close();
    }
  });

  it('a settings error about such a URL does not print it whole', () => {
    const bad = `ftp://u:${PASSWORD}@example.com/x?token=${TOKEN}`;
    let message = '';
    try {
      createEmulator({ sources: [{ writeKey: 'wk', webhooksActions: { subscriptions: [sub({ url: bad })] } }] });
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/subscriptions\[0\]\.mapping\.url/);
    expect(message).not.toContain(PASSWORD);
    expect(message).not.toContain(TOKEN);
  });

  it('a templated URL that resolves to a bad one is filtered with a masked reason', async () => {
    const emulator = createEmulator({
      sources: [
        {
          writeKey: 'wk',
          webhooksActions: {
            subscriptions: [sub({ url: { '@template': `ftp://u:${PASSWORD}@x.test/{{userId}}?token=${TOKEN}` } })],
          },
        },
      ],
    });
    const record = emulator.track({ userId: 'u1', event: 'E' });
    expect(record.state).toBe('filtered');
    // The record names the mapping's own method (PUT), not a default.
    expect(record.actions).toMatchObject({ subscription: 1, method: 'PUT', batch: false });
    expect(record.reason).toMatch(/subscription 1.*http or https/);
    expect(record.reason).not.toContain(PASSWORD);
    expect(record.reason).not.toContain(TOKEN);
    await emulator.close();
  });
});

describe('a batch sent again', () => {
  const batched = () =>
    sub({
      data: { id: { '@path': '$.messageId' }, p: { '@path': '$.properties' } },
      enable_batching: true,
      batch_size: 3,
    });

  it('retries send the same bytes and X-Signature (over the first element) each time', async () => {
    receiver.answer((_r, i) => (i < 2 ? 503 : 200));
    const emulator = createEmulator({
      retry: { initialDelayMs: 5, maxDelayMs: 20 },
      sources: [{ writeKey: 'wk', webhooksActions: { sharedSecret: SECRET, subscriptions: [batched()] } }],
    });
    for (let i = 0; i < 3; i++)
      emulator.track({ userId: 'u1', event: 'E', messageId: `r-${i}`, properties: { i, s: '😀\u2028' } });
    await emulator.drain();
    const batch = emulator.deliveries.find((r) => r.actions?.batch)!;
    expect(batch.state).toBe('delivered');
    expect(batch.attempts).toHaveLength(3);
    expect(receiver.received).toHaveLength(3);
    const [a, ...rest] = receiver.received as [Received, ...Received[]];
    for (const r of rest) {
      expect(r.body.equals(a.body)).toBe(true);
      expect(r.headers['x-signature']).toBe(a.headers['x-signature']);
      expect(r.method).toBe('PUT');
    }
    await emulator.close();
  });

  it('a replay of a batch record resends the same array and signature, as a batch record of its own', async () => {
    const emulator = createEmulator({
      sources: [{ writeKey: 'wk', webhooksActions: { sharedSecret: SECRET, subscriptions: [batched()] } }],
    });
    for (let i = 0; i < 3; i++) emulator.track({ userId: 'u1', event: 'E', messageId: `p-${i}`, properties: { i } });
    await emulator.drain();
    const batch = emulator.deliveries.find((r) => r.actions?.batch)!;
    const again = emulator.replay(batch.id);
    await emulator.drain();
    expect(again.actions).toEqual(batch.actions);
    expect(again.state).toBe('delivered');
    const [a, b] = receiver.received;
    expect(b!.body.equals(a!.body)).toBe(true);
    expect(b!.headers['x-signature']).toBe(a!.headers['x-signature']);
    expect(b!.method).toBe('PUT');
    await emulator.close();
  });
});

describe('open batches at drain() and close()', () => {
  it('drain() sends every open batch (several subscriptions and URLs) and waits for them', async () => {
    const clock = new ManualClock();
    const emulator = createEmulator({
      clock,
      sources: [
        {
          writeKey: 'wk',
          webhooksActions: {
            subscriptions: [
              sub({ url: { '@template': `${receiver.url}/by/{{userId}}` }, enable_batching: true, batch_size: 100 }),
              sub({ method: 'PATCH', enable_batching: true, batch_size: 100 }, 'type = "identify"'),
            ],
          },
        },
      ],
    });
    for (const u of ['a', 'b', 'a']) emulator.track({ userId: u, event: 'E' });
    emulator.identify({ userId: 'a', traits: {} });
    await emulator.drain();
    expect(
      receiver.received.map((r) => `${r.method} ${r.url} ${(JSON.parse(r.text) as unknown[]).length}`).sort(),
    ).toEqual(['PATCH /in 1', 'PUT /by/a 2', 'PUT /by/b 1']);
    expect(emulator.deliveries.filter((r) => r.actions?.batch).every((r) => r.state === 'delivered')).toBe(true);
    await emulator.close();
  });

  it('close() with open batches: each batch recorded failed with a reason, none sent, none lost', async () => {
    const emulator = createEmulator({
      sources: [
        {
          writeKey: 'wk',
          webhooksActions: {
            subscriptions: [
              sub({ enable_batching: true, batch_size: 100 }),
              sub({ url: `${receiver.url}/two`, enable_batching: true }),
            ],
          },
        },
      ],
    });
    for (let i = 0; i < 5; i++) emulator.track({ userId: 'u', event: 'E', messageId: `c-${i}` });
    const { pending } = await emulator.close();
    const batches = pending.filter((r) => r.actions?.batch);
    expect(batches.map((b) => b.actions?.batchSize)).toEqual([5, 5]);
    for (const b of batches) {
      expect(b.state).toBe('failed');
      expect(b.reason).toBeTruthy();
    }
    expect(receiver.received).toHaveLength(0);
  });
});

describe('a call whose event waits in a batch: its record leads to the batch record', () => {
  it("the stand-in record names the batch record(s) that carried its event, in emulator.deliveries, the inspector and serve's lines", async () => {
    const emulator = createEmulator({
      sources: [
        {
          writeKey: 'wk',
          webhooksActions: {
            sharedSecret: SECRET,
            subscriptions: [
              sub({ enable_batching: true, batch_size: 100 }),
              sub({ url: `${receiver.url}/two`, method: 'PATCH', enable_batching: true, batch_size: 2 }),
            ],
          },
        },
      ],
    });
    const intake = await emulator.listen({ port: 0, host: '127.0.0.1' });
    try {
      const a = emulator.track({ userId: 'u', event: 'E', messageId: 'w-a' });
      expect(a.state).toBe('filtered');
      expect(a.reason).toMatch(/waits in the open batch of subscription 1, 2/);
      expect(formatFilteredLine(a, false, Date.now())).toMatch(/ batched {2}/);
      // The second event fills subscription 2's batch: its record is that batch's record.
      const b = emulator.track({ userId: 'u', event: 'E', messageId: 'w-b' });
      expect(b.actions).toMatchObject({ subscription: 2, batch: true, batchSize: 2 });
      expect(a.reason).toMatch(new RegExp(`sent in the batch record ${b.id} \\(subscription 2, a batch of 2\\)`));
      await emulator.drain();
      const first = emulator.deliveries.find((r) => r.actions?.subscription === 1 && r.actions.batch)!;
      expect(first.state).toBe('delivered');
      expect(a.reason).toBe(
        `Webhooks (Actions): not sent on its own; its event was sent in the batch record ${b.id} (subscription 2, a batch of 2); ${first.id} (subscription 1, a batch of 2): see that record for the delivery`,
      );
      const detail = (await (await fetch(`${intake.url}/_hookgate/ui/api/deliveries/${a.id}`)).json()) as {
        summary: string;
        filteredBecause: string;
      };
      expect(detail.summary).toBe('batched (Webhooks (Actions))');
      expect(detail.filteredBecause).toBe(`${a.reason}.`);
      expect(detail.filteredBecause).not.toMatch(/no message could be built/);
      // The batch record's detail: its signature shortened, never whole.
      const batchDetail = await (await fetch(`${intake.url}/_hookgate/ui/api/deliveries/${first.id}`)).text();
      const sent = receiver.received.find((r) => r.url === '/in')!;
      expect(batchDetail).not.toContain(sent.headers['x-signature'] as string);
      // A stand-in has nothing of its own to send: replay says so and names nothing secret.
      expect(() => emulator.replay(a.id)).toThrow(/Cannot replay/);
      const summary = formatSummary(emulator.deliveries, [], [], false);
      expect(summary).toMatch(/filtered 1 \(1 of them sent in a Webhooks \(Actions\) batch, counted in its record\)/);
    } finally {
      await intake.close();
      await emulator.close();
    }
  });

  it('at close(), the stand-in names the batch record, which is failed with a reason', async () => {
    const emulator = createEmulator({
      sources: [
        { writeKey: 'wk', webhooksActions: { subscriptions: [sub({ enable_batching: true, batch_size: 100 })] } },
      ],
    });
    const waiting = emulator.track({ userId: 'u', event: 'E' });
    const { pending } = await emulator.close();
    const batch = pending.find((r) => r.actions?.batch)!;
    expect(batch.state).toBe('failed');
    expect(waiting.reason).toMatch(new RegExp(`sent in the batch record ${batch.id}`));
    expect(receiver.received).toHaveLength(0);
  });

  it('the call whose event fills the batch gets the batch record, never one saying it waits', async () => {
    const emulator = createEmulator({
      sources: [
        { writeKey: 'wk', webhooksActions: { subscriptions: [sub({ enable_batching: true, batch_size: 2 })] } },
      ],
    });
    const first = emulator.track({ userId: 'u', event: 'E' });
    const second = emulator.track({ userId: 'u', event: 'E' });
    expect(second.state).not.toBe('filtered');
    expect(second.actions).toMatchObject({ subscription: 1, batch: true, batchSize: 2 });
    expect(first.reason).toMatch(new RegExp(`sent in the batch record ${second.id}`));
    await emulator.drain();
    expect(second.state).toBe('delivered');
    await emulator.close();
  });

  it('a classic record is never called batched', async () => {
    const emulator = createEmulator({
      sources: [{ writeKey: 'wk', webhooks: { enabled: true, endpoints: [{ url: `${receiver.url}/classic` }] } }],
    });
    const filtered = emulator.track({ anonymousId: 'a', event: 'E' });
    expect(filtered.state).toBe('filtered');
    expect(formatFilteredLine(filtered, false, Date.now())).toMatch(/ filtered {2}/);
    await emulator.close();
  });
});

describe('a source updated while a batch is open', () => {
  it('the open batch is sent as it was (old secret, old size) before events under the new settings start a new one', async () => {
    const { createHmac } = await import('node:crypto');
    const emulator = createEmulator({
      sources: [
        {
          writeKey: 'wk',
          webhooksActions: {
            sharedSecret: 'old-secret',
            subscriptions: [sub({ data: { id: { '@path': '$.messageId' } }, enable_batching: true, batch_size: 10 })],
          },
        },
      ],
    });
    const before = emulator.track({ userId: 'u', event: 'E', messageId: 'before' });
    emulator.updateSource('wk', {
      webhooksActions: {
        sharedSecret: 'new-secret',
        subscriptions: [sub({ data: { id: { '@path': '$.messageId' } }, enable_batching: true, batch_size: 2 })],
      },
    });
    emulator.track({ userId: 'u', event: 'E', messageId: 'after-1' });
    const full = emulator.track({ userId: 'u', event: 'E', messageId: 'after-2' });
    expect(full.actions).toMatchObject({ batch: true, batchSize: 2 });
    await emulator.drain();
    const bodies = receiver.received.map((r) => [r.text, r.headers['x-signature']]);
    expect(bodies).toHaveLength(2);
    const old = bodies.find(([t]) => t === '[{"id":"before"}]')!;
    expect(old[1]).toBe(createHmac('sha1', 'old-secret').update('{"id":"before"}').digest('hex'));
    const fresh = bodies.find(([t]) => t === '[{"id":"after-1"},{"id":"after-2"}]')!;
    expect(fresh[1]).toBe(createHmac('sha1', 'new-secret').update('{"id":"after-1"}').digest('hex'));
    expect(before.reason).toMatch(/sent in the batch record dlv_/);
    await emulator.close();
  });
});

describe('batch keys', () => {
  it('events whose mapped headers differ share a batch when batch_keys leaves headers out (no early sends)', async () => {
    const emulator = createEmulator({
      sources: [
        {
          writeKey: 'wk',
          webhooksActions: {
            subscriptions: [
              sub({
                headers: { 'X-User': { '@path': '$.userId' } },
                data: { u: { '@path': '$.userId' } },
                enable_batching: true,
                batch_size: 3,
                batch_keys: ['url'],
              }),
            ],
          },
        },
      ],
    });
    for (const u of ['a', 'b', 'c']) emulator.track({ userId: u, event: 'E' });
    await emulator.drain();
    expect(receiver.received.map((r) => r.text)).toEqual(['[{"u":"a"},{"u":"b"},{"u":"c"}]']);
    await emulator.close();
  });
});
