import { parseMessage, ValidationError } from '@hookgate/core';
import { UTC_MILLIS_TIMESTAMP } from '@hookgate/core/internal';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  callToMessage,
  createEmulator,
  ManualClock,
  NO_USER_ID_REASON,
  type Emulator,
  type EmulatorOptions,
} from '@hookgate/emulator';
import { startCaptureReceiver, type CaptureReceiver } from '../helpers/capture-receiver.js';

const START = '2026-03-01T10:20:30.456Z';

describe('transform: calls become the seed §2.2 shapes (over real HTTP)', () => {
  let receiver: CaptureReceiver;
  let emulator: Emulator;
  let clock: ManualClock;
  const make = (options: Partial<EmulatorOptions> = {}) => {
    clock = new ManualClock({ start: START });
    emulator = createEmulator({
      clock,
      sources: [
        {
          writeKey: 'wk',
          webhooks: { enabled: true, endpoints: [{ url: `${receiver.url}/hook` }], sharedSecret: 's' },
        },
      ],
      ...options,
    });
    return emulator;
  };
  beforeEach(async () => {
    receiver = await startCaptureReceiver();
  });
  afterEach(async () => {
    await emulator?.close();
    await receiver.close();
  });

  it('delivers each call type in exactly its seed shape; every body passes strict parseMessage', async () => {
    make();
    const context = {
      ip: '203.0.113.9',
      device: { model: 'Pixel 8', type: 'android' },
      os: { name: 'Android', version: '14' },
    };
    emulator.page({
      userId: 'u1',
      name: 'Pricing',
      category: 'Docs',
      properties: { path: '/pricing', url: 'https://x.test/pricing' },
      context,
    });
    emulator.screen({ userId: 'u1', name: 'Home', context: { app: { build: '7', name: 'App', version: '1.0' } } });
    emulator.identify({ userId: 'u1', traits: { email: 'a@example.com', logins: 3 } });
    emulator.track({
      userId: 'u1',
      event: 'Order Completed',
      properties: { revenue: 9.5 },
      integrations: { Mixpanel: false },
    });
    emulator.alias({ previousId: 'anon_1', userId: 'u1', anonymousId: 'anon_1' });
    emulator.group({ userId: 'u1', groupId: 'acme', traits: { plan: 'team' } });
    await emulator.drain();
    const ts = START;
    // Deliveries run in parallel: put the bodies back in call order.
    const order = ['page', 'screen', 'identify', 'track', 'alias', 'group'];
    const bodies = receiver.received
      .map((r) => r.json)
      .sort((a, b) => order.indexOf(a.type as string) - order.indexOf(b.type as string));
    expect(bodies).toEqual([
      {
        version: 1,
        type: 'page',
        userId: 'u1',
        timestamp: ts,
        properties: { path: '/pricing', url: 'https://x.test/pricing' },
        context,
      },
      {
        version: 1,
        type: 'screen',
        userId: 'u1',
        timestamp: ts,
        name: 'Home',
        context: { app: { build: '7', name: 'App', version: '1.0' } },
      },
      { version: 1, type: 'identify', userId: 'u1', timestamp: ts, traits: { email: 'a@example.com', logins: 3 } },
      {
        version: 1,
        type: 'track',
        userId: 'u1',
        timestamp: ts,
        event: 'Order Completed',
        properties: { revenue: 9.5 },
      },
      { version: 1, type: 'alias', 'Previous ID': 'anon_1', 'User ID': 'u1', timestamp: ts },
      { version: 1, type: 'group', userId: 'u1', timestamp: ts, groupId: 'acme', traits: { plan: 'team' } },
    ]);
    expect('userId' in (bodies[4] as object)).toBe(false);
    for (const r of receiver.received) expect(() => parseMessage(r.text, { strictTimestamps: true })).not.toThrow();
    // The record holds the same message and the exact body bytes.
    for (const record of emulator.deliveries) {
      const got = receiver.received.find((r) => r.json.type === record.type);
      expect(record.body).toBe(got?.text);
      expect(record.message).toEqual(got?.json);
    }
  });

  it('keeps historical timestamps, reads Go-style +0000, and uses the receipt time on the emulator clock when absent', async () => {
    make();
    emulator.track({ userId: 'u1', event: 'Old', timestamp: '2019-05-04T03:02:01.789Z' });
    emulator.track({ userId: 'u1', event: 'Go', timestamp: '2009-11-10T23:00:00+0000' });
    emulator.track({ userId: 'u1', event: 'Offset', timestamp: '2024-01-01T01:00:00.5+01:00' });
    await clock.advance(90_000);
    emulator.track({ userId: 'u1', event: 'Now' });
    emulator.ingest(
      { type: 'track', userId: 'u1', event: 'Intake' },
      { writeKey: 'wk', receivedAt: '2026-03-01T11:00:00.000Z' },
    );
    await emulator.drain();
    const byEvent = (a: unknown[], b: unknown[]) =>
      emulator.deliveries.findIndex((d) => (d.message as { event?: unknown }).event === a[0]) -
      emulator.deliveries.findIndex((d) => (d.message as { event?: unknown }).event === b[0]);
    expect(receiver.received.map((r) => [r.json.event, r.json.timestamp]).sort(byEvent)).toEqual([
      ['Old', '2019-05-04T03:02:01.789Z'],
      ['Go', '2009-11-10T23:00:00.000Z'],
      ['Offset', '2024-01-01T00:00:00.500Z'],
      ['Now', '2026-03-01T10:22:00.456Z'],
      ['Intake', '2026-03-01T11:00:00.000Z'],
    ]);
    for (const r of receiver.received) expect(r.json.timestamp).toMatch(UTC_MILLIS_TIMESTAMP);
  });

  it('throws a ValidationError naming missing fields, before counting or sending anything', async () => {
    make();
    expect(() => emulator.track({ userId: 'u1' })).toThrow(ValidationError);
    expect(() => emulator.track({ userId: 'u1' })).toThrow(/\$\.event: is required/);
    expect(() => emulator.group({ userId: 'u1' })).toThrow(/\$\.groupId/);
    expect(() => emulator.alias({ previousId: 'a' })).toThrow(/\$\.userId/);
    expect(() => emulator.identify({ traits: {} })).toThrow(/userId or anonymousId is required/);
    expect(() => emulator.track({ userId: 'u1', event: 'E', timestamp: 'yesterday' })).toThrow(/\$\.timestamp/);
    await emulator.drain();
    expect(emulator.deliveries).toHaveLength(0);
    expect(emulator.usage('wk')).toBe(0);
    expect(receiver.received).toHaveLength(0);
  });

  it('filters a call with only anonymousId by default, and delivers it with anonymousCalls: anonymousId-as-userId', async () => {
    make();
    const filtered = emulator.track({ anonymousId: 'anon_9', event: 'Viewed' });
    expect(filtered.state).toBe('filtered');
    expect(filtered.reason).toBe(NO_USER_ID_REASON);
    await emulator.drain();
    expect(receiver.received).toHaveLength(0);
    await emulator.close();

    make({ anonymousCalls: 'anonymousId-as-userId' });
    emulator.track({ anonymousId: 'anon_9', event: 'Viewed' });
    await emulator.drain();
    expect(receiver.received[0]?.json).toMatchObject({ type: 'track', userId: 'anon_9', event: 'Viewed' });
  });

  it('adds messageId and anonymousId only with includeIds: true', async () => {
    make({ includeIds: true });
    emulator.track({ userId: 'u1', anonymousId: 'anon_1', messageId: 'm-1', event: 'A' });
    emulator.identify({ userId: 'u2' });
    await emulator.drain();
    const track = receiver.received.find((r) => r.json.type === 'track')?.json;
    const identify = receiver.received.find((r) => r.json.type === 'identify')?.json;
    expect(track).toMatchObject({ messageId: 'm-1', anonymousId: 'anon_1' });
    expect(identify?.messageId).toMatch(/^emu-[0-9a-f-]{36}$/);
    expect('anonymousId' in (identify ?? {})).toBe(false);
    for (const r of receiver.received) expect(() => parseMessage(r.text, { strictTimestamps: true })).not.toThrow();
  });

  it('records as filtered, with the reason, a call that cannot make a valid message', () => {
    make();
    const screen = emulator.screen({ userId: 'u1' });
    expect(screen.state).toBe('filtered');
    expect(screen.reason).toMatch(/no name/);
    const badContext = emulator.track({ userId: 'u1', event: 'E', context: { device: { model: 42 } } });
    expect(badContext.state).toBe('filtered');
    expect(badContext.reason).toMatch(/\$\.context\.device\.model/);
  });
});

describe('callToMessage (property-based): every valid call gives a strictly valid message', () => {
  const id = fc.string({ minLength: 1, maxLength: 12 });
  const obj = fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 5 });
  // Context and page properties with the typed keys, sometimes of the wrong kind.
  const loose = fc.oneof(
    fc.string(),
    fc.integer(),
    fc.record({ model: fc.oneof(fc.string(), fc.integer()), name: fc.string() }, { requiredKeys: [] }),
  );
  const ctx = fc.oneof(obj, fc.record({ device: loose, os: loose, app: loose, ip: fc.string() }, { requiredKeys: [] }));
  const pageProps = fc.oneof(
    obj,
    fc.record(
      { url: fc.oneof(fc.string(), fc.integer()), title: fc.string(), extra: fc.jsonValue() },
      { requiredKeys: [] },
    ),
  );
  const ts = fc.option(
    fc
      .date({ min: new Date('1990-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true })
      .chain((d) =>
        fc.constantFrom(
          d.toISOString(),
          d.toISOString().replace(/\.\d{3}Z$/, '+0000'),
          d.toISOString().replace('Z', '+05:30'),
        ),
      ),
    { nil: undefined },
  );
  const call = fc.oneof(
    fc.record({
      type: fc.constant('identify' as const),
      userId: id,
      traits: fc.option(obj, { nil: undefined }),
      timestamp: ts,
    }),
    fc.record({
      type: fc.constant('track' as const),
      userId: id,
      event: fc.string(),
      properties: fc.option(obj, { nil: undefined }),
      timestamp: ts,
    }),
    fc.record({
      type: fc.constant('page' as const),
      userId: id,
      properties: fc.option(pageProps, { nil: undefined }),
      context: fc.option(ctx, { nil: undefined }),
      timestamp: ts,
    }),
    fc.record({
      type: fc.constant('screen' as const),
      userId: id,
      name: id,
      context: fc.option(ctx, { nil: undefined }),
      timestamp: ts,
    }),
    fc.record({
      type: fc.constant('group' as const),
      userId: id,
      groupId: fc.string(),
      traits: fc.option(obj, { nil: undefined }),
      timestamp: ts,
    }),
    fc.record({
      type: fc.constant('alias' as const),
      userId: id,
      previousId: fc.string(),
      context: fc.option(ctx, { nil: undefined }),
      timestamp: ts,
    }),
  );
  it('is a valid message, or a filtered one with a reason', () => {
    fc.assert(
      fc.property(call, fc.boolean(), (c, includeIds) => {
        const clean = Object.fromEntries(Object.entries(c).filter(([, v]) => v !== undefined)) as never;
        const r = callToMessage(clean, Date.parse(START), { includeIds, anonymousCalls: 'filter' });
        if (!r.ok) {
          // Only a wrongly typed context part or page property may stop a valid call.
          expect(r.reason).toMatch(/\$\.(context\.(device|os|app)|properties\.(url|title))/);
          return;
        }
        expect(() => parseMessage(JSON.stringify(r.message), { strictTimestamps: true })).not.toThrow();
        expect(r.message.type).toBe((clean as { type: string }).type);
      }),
      { numRuns: 400 },
    );
  });
});
