// The emulator's Webhooks (Actions) requests, byte for byte against Segment's own destination code
// (@segment/action-destinations 3.387.0 driven through @segment/actions-core's Destination), both
// sending to the same real HTTP receiver on 127.0.0.1.
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEmulator, ManualClock, type Emulator } from '../../src/index.js';
import { startCaptureReceiver, type CaptureReceiver, type Received } from '../helpers/capture-receiver.js';
import {
  SEGMENT_ACTION_DESTINATIONS_VERSION as segmentVersion,
  segmentOnBatch,
  segmentOnEvent,
} from '../../../../test/helpers/segment-actions-sender.js';

const SECRET = 'actions-s3cret';
let receiver: CaptureReceiver;

beforeAll(async () => {
  receiver = await startCaptureReceiver();
});
afterAll(() => receiver.close());
beforeEach(() => {
  receiver.received.length = 0;
});

/** The headers Segment's code decides (the HTTP client adds its own framing headers: Accept, Connection, ...). */
function decided(r: Received, mappingHeaders: string[]): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const name of ['user-agent', 'content-type', 'x-signature', ...mappingHeaders.map((h) => h.toLowerCase())])
    out[name] = r.headers[name] as string | undefined;
  return out;
}

function expectSameRequest(emulated: Received, real: Received, mappingHeaders: string[] = []): void {
  expect(emulated.method).toBe(real.method);
  expect(emulated.url).toBe(real.url);
  expect(decided(emulated, mappingHeaders)).toEqual(decided(real, mappingHeaders));
  expect(emulated.body.equals(real.body), `bodies differ:\nemulator: ${emulated.text}\nsegment:  ${real.text}`).toBe(
    true,
  );
}

/** A subscription as a user pastes it from Segment, with the receiver's URL. */
function subscription(path: string, mapping: Record<string, unknown>, subscribe = 'type = "track"') {
  return {
    subscribe,
    partnerAction: 'send' as const,
    enabled: true,
    mapping: { url: `${receiver.url}${path}`, ...mapping },
  };
}

async function emulate(
  subscriptions: ReturnType<typeof subscription>[],
  send: (e: Emulator) => void,
  options: { clock?: ManualClock } = {},
): Promise<Received[]> {
  const emulator = createEmulator({
    sources: [{ writeKey: 'wk', webhooksActions: { enabled: true, sharedSecret: SECRET, subscriptions } }],
    ...(options.clock ? { clock: options.clock } : {}),
  });
  send(emulator);
  await emulator.drain();
  await emulator.close();
  const got = [...receiver.received];
  receiver.received.length = 0;
  return got;
}

const trackCall = {
  userId: 'user_1001',
  anonymousId: 'anon_5e1f',
  messageId: 'msg-interop-1',
  event: 'Order Completed',
  timestamp: '2026-11-25T10:00:00.250Z',
  properties: {
    order_id: 'o-77',
    revenue: 42.5,
    currency: 'EUR',
    plan: 'pro',
    note: 'crème brûlée \u2028 "quoted" </script>',
    sku: 'SKU-1',
  },
  context: { ip: '203.0.113.9', library: { name: 'analytics-node', version: '2.1.0' } },
  integrations: { All: true },
};

describe(`Webhooks (Actions) requests equal what @segment/action-destinations ${segmentVersion} sends`, () => {
  it('runs against the pinned 3.387.0', () => {
    expect(segmentVersion).toBe('3.387.0');
  });

  it('whole event (the default mapping) with PUT, headers and X-Signature', async () => {
    const sub = subscription('/orders', {
      method: 'PUT',
      headers: { 'X-Team': 'growth', Authorization: 'Bearer t0k3n' },
      data: { '@path': '$.' },
    });
    const [emulated] = await emulate([sub], (e) => e.track(trackCall));
    expect(emulated).toBeDefined();
    const event = JSON.parse(emulated!.text) as Record<string, unknown>;
    // The whole Segment event, with the Spec's common fields.
    expect(event).toMatchObject({
      type: 'track',
      userId: 'user_1001',
      anonymousId: 'anon_5e1f',
      messageId: 'msg-interop-1',
      event: 'Order Completed',
    });
    for (const field of ['timestamp', 'originalTimestamp', 'sentAt', 'receivedAt', 'context', 'integrations'])
      expect(event).toHaveProperty(field);
    await segmentOnEvent(event, { sharedSecret: SECRET, subscription: sub });
    const [real] = receiver.received;
    expectSameRequest(emulated!, real!, ['X-Team', 'Authorization']);
    expect(emulated!.headers['user-agent']).toBe('Segment (Actions)');
    expect(emulated!.headers['x-signature']).toBe(createHmac('sha1', SECRET).update(emulated!.body).digest('hex'));
  });

  // Each mapped case also subscribes the whole event to /events, to hand Segment's code the very event the emulator built.
  const mapped: Array<[string, Record<string, unknown>]> = [
    [
      '@path',
      {
        method: 'POST',
        data: {
          order: { '@path': '$.properties.order_id' },
          user: { '@path': '$.userId' },
          total: { '@path': '$.properties.revenue' },
          ctx: { '@path': '$.context.library' },
        },
      },
    ],
    [
      '@template (data and URL)',
      {
        url: { '@template': `${'{{'}properties.currency{{'}}'}` },
        method: 'PATCH',
        data: {
          text: { '@template': '{{userId}} bought {{properties.sku}} for {{properties.revenue}}' },
          note: { '@template': '{{properties.note}}' },
        },
      },
    ],
    [
      '@if',
      {
        method: 'POST',
        headers: { 'X-Plan': 'yes' },
        data: {
          plan: {
            '@if': { exists: { '@path': '$.properties.plan' }, then: { '@path': '$.properties.plan' }, else: 'free' },
          },
          coupon: {
            '@if': {
              exists: { '@path': '$.properties.coupon' },
              then: { '@path': '$.properties.coupon' },
              else: 'none',
            },
          },
        },
      },
    ],
  ];

  it.each(mapped)('%s mapping', async (_name, mapping) => {
    const base = subscription('/mapped', mapping);
    // A templated URL: make it a full URL on the receiver.
    if (typeof mapping.url === 'object')
      (base.mapping as Record<string, unknown>).url = {
        '@template': `${receiver.url}/by-currency/{{properties.currency}}`,
      };
    const whole = subscription('/events', { method: 'POST', data: { '@path': '$.' } });
    const got = await emulate([whole, base], (e) => e.track(trackCall));
    const event = JSON.parse(got.find((r) => r.url === '/events')!.text) as Record<string, unknown>;
    const emulated = got.find((r) => r.url !== '/events')!;
    expect(emulated).toBeDefined();
    await segmentOnEvent(event, { sharedSecret: SECRET, subscription: base });
    const [real] = receiver.received;
    expectSameRequest(emulated, real!, Object.keys((mapping.headers as Record<string, string>) ?? {}));
  });

  it("agrees with Segment's FQL code on which subscriptions an event matches, for every call type", async () => {
    const conditions = [
      'type = "track" and event = "Order Completed"',
      'event = "Signed Up" or properties.revenue > 10',
      'type = "identify" and traits.plan = "pro"',
      'userId = "u2"',
      'type = "page" or type = "screen" or type = "group" or type = "alias"',
    ];
    const subs = conditions.map((c, i) => subscription(`/s${i + 1}`, { method: 'POST', data: { '@path': '$.' } }, c));
    const everything = subscription(
      '/events',
      { method: 'POST', data: { '@path': '$.' } },
      'type = "track" or type = "identify" or type = "page" or type = "screen" or type = "group" or type = "alias"',
    );
    const clock = new ManualClock({ start: '2026-11-25T12:00:00.000Z' });
    const emulator = createEmulator({
      clock,
      sources: [
        { writeKey: 'under-test', webhooksActions: { sharedSecret: SECRET, subscriptions: subs } },
        { writeKey: 'events', webhooksActions: { sharedSecret: SECRET, subscriptions: [everything] } },
      ],
    });
    const calls: Array<[string, Record<string, unknown>]> = [
      ['track', { userId: 'u1', event: 'Order Completed', properties: { revenue: 42 } }],
      ['track', { userId: 'u2', event: 'Signed Up' }],
      ['track', { anonymousId: 'a1', event: 'Viewed', properties: { revenue: 5 } }],
      ['identify', { userId: 'u1', traits: { plan: 'pro' } }],
      ['identify', { userId: 'u2', traits: { plan: 'free' } }],
      ['page', { anonymousId: 'a1', name: 'Pricing' }],
      ['screen', { userId: 'u3', name: 'Home' }],
      ['group', { userId: 'u1', groupId: 'g1', traits: { name: 'Acme' } }],
      ['alias', { previousId: 'a1', userId: 'u1' }],
    ];
    calls.forEach(([type, call], i) => {
      for (const writeKey of ['under-test', 'events'])
        (emulator as unknown as Record<string, (c: unknown, o: unknown) => unknown>)[type]!(
          { ...call, messageId: `fql-${i}` },
          { writeKey },
        );
    });
    await emulator.drain();
    await emulator.close();
    const key = (r: Received) => `${r.url} ${String(r.headers['x-signature'])} ${r.text}`;
    const emulated = receiver.received
      .filter((r) => r.url !== '/events')
      .map(key)
      .sort();
    const events = receiver.received
      .filter((r) => r.url === '/events')
      .map((r) => JSON.parse(r.text) as Record<string, unknown>);
    expect(events).toHaveLength(calls.length);
    receiver.received.length = 0;
    for (const event of events) await segmentOnEvent(event, { sharedSecret: SECRET, subscriptions: subs });
    const real = receiver.received.map(key).sort();
    expect(emulated.length).toBeGreaterThan(5);
    expect(emulated).toEqual(real);
  });

  it('a batch flushed at batch_size: a JSON array whose X-Signature covers only the first element', async () => {
    const data = {
      id: { '@path': '$.messageId' },
      event: { '@path': '$.event' },
      revenue: { '@path': '$.properties.revenue' },
    };
    const batched = subscription('/batch', {
      method: 'POST',
      headers: { 'X-Batch': '1' },
      data,
      enable_batching: true,
      batch_size: 3,
    });
    const whole = subscription('/events', { method: 'POST', data: { '@path': '$.' } });
    let flushedBeforeDrain = 0;
    const got = await emulate([whole, batched], (e) => {
      for (let i = 0; i < 3; i++) e.track({ ...trackCall, messageId: `msg-b-${i}`, properties: { revenue: i + 0.5 } });
      // The third event filled the batch: its record exists before drain().
      flushedBeforeDrain = e.deliveries.filter((r) => r.actions?.batch).length;
    });
    expect(flushedBeforeDrain).toBe(1);
    const events = got.filter((r) => r.url === '/events').map((r) => JSON.parse(r.text) as Record<string, unknown>);
    const emulatedBatches = got.filter((r) => r.url === '/batch');
    expect(emulatedBatches).toHaveLength(1);
    const emulated = emulatedBatches[0]!;
    expect(JSON.parse(emulated.text)).toHaveLength(3);
    await segmentOnBatch(events, { sharedSecret: SECRET, subscription: batched });
    const [real] = receiver.received;
    expectSameRequest(emulated, real!, ['X-Batch']);
    const first = JSON.stringify((JSON.parse(emulated.text) as unknown[])[0]);
    expect(emulated.headers['x-signature']).toBe(createHmac('sha1', SECRET).update(first).digest('hex'));
    expect(emulated.headers['x-signature']).not.toBe(createHmac('sha1', SECRET).update(emulated.body).digest('hex'));
  });

  it('a part-full batch is sent when its flush window ends on the emulator clock, and on drain()', async () => {
    const clock = new ManualClock();
    const batched = subscription('/window', {
      method: 'PUT',
      data: { '@path': '$.properties' },
      enable_batching: true,
      batch_size: 100,
    });
    const emulator = createEmulator({
      sources: [
        { writeKey: 'wk', webhooksActions: { sharedSecret: SECRET, batchWindowMs: 30_000, subscriptions: [batched] } },
      ],
      clock,
    });
    emulator.track({ ...trackCall, messageId: 'w1', properties: { n: 1 } });
    emulator.track({ ...trackCall, messageId: 'w2', properties: { n: 2 } });
    expect(emulator.deliveries.filter((r) => r.actions)).toHaveLength(0);
    await clock.advance(29_999);
    expect(emulator.deliveries.filter((r) => r.actions)).toHaveLength(0);
    await clock.advance(1);
    const batches = emulator.deliveries.filter((r) => r.actions?.batch);
    expect(batches).toHaveLength(1);
    expect(batches[0]!.actions).toMatchObject({ subscription: 1, method: 'PUT', batchSize: 2, batch: true });
    emulator.track({ ...trackCall, messageId: 'w3', properties: { n: 3 } });
    await emulator.drain();
    const all = emulator.deliveries.filter((r) => r.actions?.batch);
    expect(all.map((r) => r.actions?.batchSize)).toEqual([2, 1]);
    expect(all.every((r) => r.state === 'delivered')).toBe(true);
    await emulator.close();
    const bodies = receiver.received.map((r) => r.text);
    expect(bodies).toEqual(['[{"n":1},{"n":2}]', '[{"n":3}]']);
    expect(receiver.received.map((r) => r.method)).toEqual(['PUT', 'PUT']);
  });
});
