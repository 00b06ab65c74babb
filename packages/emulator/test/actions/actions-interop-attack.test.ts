// Hostile events and mappings, byte for byte against Segment's own destination code
// (@segment/action-destinations 3.387.0 through @segment/actions-core's Destination): for each case the
// emulator builds the whole event (sent to /events by a second subscription) and its request under the
// subscription being attacked; the same event and subscription are then handed to Segment's code, both
// sending to one real HTTP receiver on 127.0.0.1. Either both send the same request, or neither sends
// and the emulator records the event filtered with a reason.
import { createRequire } from 'node:module';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEmulator, ManualClock, type DeliveryRecord } from '../../src/index.js';
import { listenIntake } from '../../src/intake/index.js';
import { startCaptureReceiver, type CaptureReceiver, type Received } from '../helpers/capture-receiver.js';
import { segmentOnBatch, segmentOnEvent } from '../../../../test/helpers/segment-actions-sender.js';

// Segment's CommonJS build, as the emulator loads it.
const require = createRequire(import.meta.url);

const SECRET = 'attack-s3cret';
let receiver: CaptureReceiver;

beforeAll(async () => {
  receiver = await startCaptureReceiver();
});
afterAll(() => receiver.close());
beforeEach(() => {
  receiver.received.length = 0;
});

type Mapping = Record<string, unknown>;

function subscription(path: string, mapping: Mapping, subscribe = 'type = "track"') {
  return {
    subscribe,
    partnerAction: 'send' as const,
    enabled: true,
    mapping: { url: `${receiver.url}${path}`, method: 'POST', ...mapping },
  };
}

const whole = () =>
  subscription(
    '/events',
    { data: { '@path': '$.' } },
    'type = "track" or type = "identify" or type = "page" or type = "screen" or type = "group" or type = "alias"',
  );

const ID = (r: Received) => ({
  method: r.method,
  url: r.url,
  ua: r.headers['user-agent'],
  ct: r.headers['content-type'],
  sig: r.headers['x-signature'],
  body: r.text,
});

/**
 * Runs one call through the emulator (a whole-event subscription beside `sub`), then the event it built
 * through Segment's code with `sub`; returns both sides' requests to `sub` and the emulator's records.
 */
async function attack(sub: ReturnType<typeof subscription>, call: Record<string, unknown>, type = 'track') {
  const emulator = createEmulator({
    sources: [{ writeKey: 'wk', webhooksActions: { sharedSecret: SECRET, subscriptions: [whole(), sub] } }],
  });
  (emulator as unknown as Record<string, (c: unknown) => unknown>)[type]!(call);
  await emulator.drain();
  const records = emulator.deliveries.filter((r) => r.actions?.subscription === 2);
  await emulator.close();
  const got = [...receiver.received];
  receiver.received.length = 0;
  const eventReq = got.find((r) => r.url === '/events');
  expect(eventReq, 'the whole event was sent').toBeDefined();
  const event = JSON.parse(eventReq!.text) as Record<string, unknown>;
  let segmentError: string | undefined;
  try {
    await segmentOnEvent(event, { sharedSecret: SECRET, subscription: sub });
  } catch (e) {
    segmentError = (e as Error).message;
  }
  const real = [...receiver.received];
  receiver.received.length = 0;
  return {
    emulated: got.filter((r) => r.url !== '/events'),
    real,
    records,
    event,
    segmentError,
    eventText: eventReq!.text,
  };
}

function expectSame(r: Awaited<ReturnType<typeof attack>>): void {
  expect(r.emulated.map(ID), `segment's code: ${r.segmentError ?? 'sent'}`).toEqual(r.real.map(ID));
  for (let i = 0; i < r.real.length; i++) expect(r.emulated[i]!.body.equals(r.real[i]!.body)).toBe(true);
  if (r.real.length === 0) {
    // Neither sent: the emulator says why on a filtered record.
    expect(r.records.length).toBeGreaterThan(0);
    for (const rec of r.records) {
      expect(rec.state).toBe('filtered');
      expect(rec.reason).toMatch(/subscription 2/);
    }
  }
}

const base = { userId: 'u1', messageId: 'm-attack', event: 'Hostile', timestamp: '2026-11-25T10:00:00.000Z' };

describe("hostile events: the emulator sends what Segment's 3.387.0 code sends", () => {
  it('unicode: emoji, a lone surrogate, U+2028/U+2029, NUL and </script> in properties, templates and the URL path', async () => {
    const props = {
      emoji: '👩‍💻🚀',
      lone: 'a\ud800b',
      tail: '\udfff',
      sep: 'x\u2028y\u2029z',
      nul: 'a\u0000b',
      html: '</script><!--',
      esc: '\u001b[31m',
    };
    const sub = subscription('/u', {
      data: {
        all: { '@path': '$.properties' },
        t: { '@template': '{{properties.emoji}}|{{properties.lone}}|{{properties.sep}}' },
      },
    });
    const r = await attack(sub, { ...base, properties: props });
    expect(r.real).toHaveLength(1);
    expectSame(r);
  });

  it('null in optional fields, as other-language clients send it', async () => {
    const sub = subscription('/nulls', {
      data: {
        coupon: { '@path': '$.properties.coupon' },
        plan: { '@if': { exists: { '@path': '$.properties.coupon' }, then: 'has', else: 'none' } },
        ctx: { '@path': '$.context.page' },
      },
    });
    // (The intake reads a top-level null as absent, as the tracking API does: intake-lenient.test.ts.)
    const r = await attack(sub, { ...base, properties: { coupon: null, list: [null, 1] }, context: { page: null } });
    expectSame(r);
  });

  it('big and odd numbers, deep and empty properties', async () => {
    let deep: Record<string, unknown> = { leaf: 1 };
    for (let i = 0; i < 40; i++) deep = { d: deep };
    const sub = subscription('/numbers', { data: { '@path': '$.properties' } });
    const r = await attack(sub, {
      ...base,
      properties: { big: 2 ** 60, neg: -0, tiny: 5e-324, f: 0.1 + 0.2, deep, empty: {}, arr: [] },
    });
    expectSame(r);
    const empty = await attack(subscription('/empty', { data: { '@path': '$.properties' } }), {
      ...base,
      properties: {},
    });
    expectSame(empty);
    const absent = await attack(subscription('/absent', { data: { p: { '@path': '$.properties.nothing' } } }), {
      ...base,
      properties: {},
    });
    expectSame(absent);
  });

  it('a @template with missing paths and @if on absent fields', async () => {
    const sub = subscription('/tpl', {
      data: {
        text: { '@template': 'hi {{traits.name}} from {{context.missing.deep}} ({{properties.n}})' },
        branch: {
          '@if': {
            exists: { '@path': '$.properties.absent' },
            then: { '@path': '$.properties.absent' },
            else: { '@path': '$.properties.alsoAbsent' },
          },
        },
        blank: { '@if': { blank: { '@path': '$.properties.absent' }, then: 'was blank', else: 'not blank' } },
      },
    });
    const r = await attack(sub, { ...base, properties: { n: 0 } });
    expectSame(r);
    const url = await attack(
      subscription('/x', { url: { '@template': `${receiver.url}/by/{{properties.missing}}` }, data: { a: 1 } }),
      base,
    );
    expectSame(url);
  });

  it('headers: mapped from the event (numbers, spaces, empty, absent), literal odd values', async () => {
    const sub = subscription('/headers', {
      headers: {
        'X-Num': { '@path': '$.properties.n' },
        'X-Space': { '@path': '$.properties.s' },
        'X-Absent': { '@path': '$.properties.none' },
        'X-Lit': ' padded  value ',
      },
      data: { a: 1 },
    });
    const r = await attack(sub, { ...base, properties: { n: 42, s: 'a b\tc' } });
    expectSame(r);
    expect(r.emulated[0]?.headers['x-num']).toBe(r.real[0]?.headers['x-num']);
    expect(r.emulated[0]?.headers['x-space']).toBe(r.real[0]?.headers['x-space']);
    expect(r.emulated[0]?.headers['x-lit']).toBe(r.real[0]?.headers['x-lit']);
    expect('x-absent' in (r.emulated[0]?.headers ?? {})).toBe('x-absent' in (r.real[0]?.headers ?? {}));
  });

  it("Accept as Segment's client sends it (*/*, or the mapping's); Accept-Encoding gzip,deflate as it does", async () => {
    const plain = await attack(subscription('/accept', { data: { a: 1 } }), base);
    expect(plain.emulated[0]?.headers.accept).toBe('*/*');
    expect(plain.emulated[0]?.headers.accept).toBe(plain.real[0]?.headers.accept);
    const own = await attack(subscription('/accept2', { headers: { accept: 'text/plain' }, data: { a: 1 } }), base);
    expect(own.emulated[0]?.headers.accept).toBe('text/plain');
    expect(own.emulated[0]?.headers.accept).toBe(own.real[0]?.headers.accept);
    // As Segment's client: it asks for gzip or deflate (and logs a compressed answer decoded).
    expect(plain.emulated[0]?.headers['accept-encoding']).toBe('gzip,deflate');
    expect(plain.emulated[0]?.headers['accept-encoding']).toBe(plain.real[0]?.headers['accept-encoding']);
  });

  it('a mapped header value with CR/LF is not sent by either side', async () => {
    const sub = subscription('/crlf', { headers: { 'X-Inject': { '@path': '$.properties.h' } }, data: { a: 1 } });
    const r = await attack(sub, { ...base, properties: { h: 'ok\r\nX-Evil: 1' } });
    expect(r.emulated.some((x) => 'x-evil' in x.headers)).toBe(false);
    expect(r.real.some((x) => 'x-evil' in x.headers)).toBe(false);
  });

  it('a mapped header value past U+00FF or with DEL: neither side sends, the emulator records why (no retries)', async () => {
    for (const h of ['café ☕', 'del\u007f', 'emoji 😀']) {
      const sub = subscription('/bad-header', { headers: { 'X-H': { '@path': '$.properties.h' } }, data: { a: 1 } });
      const r = await attack(sub, { ...base, properties: { h } });
      expect(r.real, h).toHaveLength(0);
      expect(r.segmentError, h).toMatch(/not a legal HTTP header value/);
      expectSame(r);
      expect(r.records[0]?.reason).toMatch(
        /subscription 2: the mapping's header "X-H" resolved to a value that is not a legal HTTP header value/,
      );
      expect(r.records[0]?.attempts).toHaveLength(0);
    }
  });

  it('a mapped header value with Latin-1 characters is sent as Segment sends it', async () => {
    const sub = subscription('/latin1', { headers: { 'X-H': { '@path': '$.properties.h' } }, data: { a: 1 } });
    const r = await attack(sub, { ...base, properties: { h: 'café ñ' } });
    expectSame(r);
    expect(r.emulated[0]?.headers['x-h']).toBe(r.real[0]?.headers['x-h']);
  });

  it("FQL with !=, contains, match and and/or/not agrees with Segment's matcher", async () => {
    const conditions = [
      'type = "track" and event != "Hostile"',
      'type = "track" and contains(event, "ost")',
      'type = "track" and match(properties.plan, "pr*")',
      'type = "track" and !contains(event, "Hos")',
      'type = "track" and !match(properties.plan, "fr*")',
      '(type = "track" or type = "identify") and (properties.plan = "free" or properties.plan = "pro")',
      'properties.revenue >= 10 and properties.revenue < 100',
      'type = "track" and properties.flag = true',
      'type = "track" and properties.missing = null',
      'type = "track" and properties.plan exists',
    ];
    for (const c of conditions) {
      const sub = subscription('/fql', { data: { e: { '@path': '$.event' } } }, c);
      let settingsError: string | undefined;
      try {
        createEmulator({ sources: [{ writeKey: 'wk', webhooksActions: { subscriptions: [sub] } }] });
      } catch (e) {
        settingsError = (e as Error).message;
      }
      const parsed = (
        require('@segment/destination-subscriptions') as { parseFql: (s: string) => { error?: Error } }
      ).parseFql(c);
      if (parsed.error) {
        expect(settingsError, c).toMatch(/subscriptions\[0\]\.subscribe/);
        continue;
      }
      expect(settingsError, c).toBeUndefined();
      for (const props of [
        { plan: 'pro', revenue: 42, flag: true },
        { plan: 'free', revenue: 5 },
      ]) {
        const r = await attack(sub, { ...base, properties: props });
        // Segment's onEvent runs the subscription's condition itself (settings.subscription).
        expect(r.emulated.map(ID), `${c} ${JSON.stringify(props)}`).toEqual(r.real.map(ID));
      }
    }
  });

  it("FQL Segment's parser reads other than written is refused, naming the subscription: a negated group, and/or mixed without parentheses", () => {
    const parse = require('@segment/destination-subscriptions') as {
      parseFql: (s: string) => unknown;
      validate: (c: unknown, e: unknown) => boolean;
    };
    const hostile = { type: 'track', event: 'Hostile', properties: { plan: 'free' } };
    const cases: Array<[string, RegExp]> = [
      ['type = "track" and !(event = "Hostile")', /negated group/],
      ['type = "track" and not (event = "Hostile")', /negated group/],
      ['type = "track" and event = "A" or type = "identify"', /mixes and and or/],
      ['(type = "page" or type = "track" and event = "A")', /mixes and and or/],
    ];
    for (const [fql, why] of cases) {
      expect(
        () =>
          createEmulator({
            sources: [
              {
                writeKey: 'wk',
                webhooksActions: { subscriptions: [subscription('/x', {}), subscription('/y', {}, fql)] },
              },
            ],
          }),
        fql,
      ).toThrow(new RegExp(`subscriptions\\[1\\]\\.subscribe.*${why.source}`));
    }
    // Why: Segment's matcher drops the negation and reads and/or as all or.
    expect(parse.validate(parse.parseFql('type = "track" and !(event = "Hostile")'), hostile)).toBe(true);
    expect(
      parse.validate(parse.parseFql('type = "track" and event = "A" or type = "identify"'), { type: 'page' }),
    ).toBe(false);
    expect(
      parse.validate(parse.parseFql('type = "track" and event = "A" or type = "identify"'), {
        type: 'track',
        event: 'B',
      }),
    ).toBe(true);
    // Quoted text is not read as FQL: these stay valid.
    for (const fql of ['event = "not (this) and or that"', 'properties.not = "x"', 'event = "!(A)"'])
      expect(
        () =>
          createEmulator({
            sources: [{ writeKey: 'wk', webhooksActions: { subscriptions: [subscription('/x', {}, fql)] } }],
          }),
        fql,
      ).not.toThrow();
  });

  it('invalid FQL is refused naming the subscription', () => {
    // Segment's parser reads some of these without an error (`type = ` as type = "eos", `===` as type = "="): refused too.
    for (const bad of [
      'type = ',
      'type === "track"',
      'event = "unterminated',
      'contains(event)',
      'and or',
      'event = ',
      'type = "track" and event =',
    ]) {
      expect(
        () =>
          createEmulator({
            sources: [
              {
                writeKey: 'wk',
                webhooksActions: { subscriptions: [subscription('/x', {}), subscription('/y', {}, bad)] },
              },
            ],
          }),
        bad,
      ).toThrow(/sources\[0\]\.webhooksActions\.subscriptions\[1\]\.subscribe.*not valid FQL/);
    }
  });
});

describe("batches against Segment's onBatch", () => {
  async function batchCompare(size: number, count: number) {
    const sub = subscription('/b', {
      data: { id: { '@path': '$.messageId' }, e: { '@path': '$.properties' } },
      enable_batching: true,
      batch_size: size,
    });
    const emulator = createEmulator({
      // Virtual time that is never moved: the sender's 5 s answer deadline is not what is compared here, and
      // on a busy machine the 4,000-event batch (beside 4,001 single events) can take longer than 5 s of
      // real time to be answered, which a real clock would turn into a retry, and a second copy of it.
      clock: new ManualClock(),
      sources: [{ writeKey: 'wk', webhooksActions: { sharedSecret: SECRET, subscriptions: [whole(), sub] } }],
    });
    for (let i = 0; i < count; i++)
      emulator.track({ ...base, messageId: `b-${i}`, properties: { i, s: i % 7 === 0 ? '\u2028😀' : null } });
    await emulator.drain();
    const batches = emulator.deliveries.filter((r) => r.actions?.batch);
    await emulator.close();
    const got = [...receiver.received];
    receiver.received.length = 0;
    // The whole events arrive in any order (sent in parallel); a batch holds them in call order.
    const events = got
      .filter((r) => r.url === '/events')
      .map((r) => JSON.parse(r.text) as { properties: { i: number } })
      .sort((a, b) => a.properties.i - b.properties.i);
    const emulated = got.filter((r) => r.url === '/b');
    // Segment's runtime hands onBatch at most batch_size events: one call per emulated batch.
    let at = 0;
    for (const b of emulated) {
      const n = (JSON.parse(b.text) as unknown[]).length;
      await segmentOnBatch(events.slice(at, at + n), { sharedSecret: SECRET, subscription: sub });
      at += n;
    }
    expect(at).toBe(count);
    expect(emulated.map(ID)).toEqual(receiver.received.map(ID));
    receiver.received.length = 0;
    return { emulated, batches };
  }

  it('batch_size 1: every event its own one-element array, signed over that element', async () => {
    const { emulated, batches } = await batchCompare(1, 3);
    expect(emulated).toHaveLength(3);
    expect(batches.map((b) => b.actions?.batchSize)).toEqual([1, 1, 1]);
  });

  it('batch_size 4000: 4001 events make a batch of 4000 and one of 1', async () => {
    const { emulated, batches } = await batchCompare(4000, 4001);
    expect(emulated.map((r) => (JSON.parse(r.text) as unknown[]).length)).toEqual([4000, 1]);
    expect(batches.every((b) => b.state === 'delivered')).toBe(true);
  }, 60_000);

  it("batch_keys without headers: one batch whose headers are the first event's, as Segment's onBatch sends", async () => {
    const sub = subscription('/keys', {
      headers: { 'X-User': { '@path': '$.userId' } },
      data: { u: { '@path': '$.userId' } },
      enable_batching: true,
      batch_size: 3,
      batch_keys: ['url'],
    });
    const emulator = createEmulator({
      sources: [{ writeKey: 'wk', webhooksActions: { sharedSecret: SECRET, subscriptions: [whole(), sub] } }],
    });
    for (const u of ['a', 'b', 'c']) emulator.track({ ...base, userId: u, messageId: `k-${u}` });
    await emulator.drain();
    await emulator.close();
    const got = [...receiver.received];
    receiver.received.length = 0;
    const events = got
      .filter((r) => r.url === '/events')
      .map((r) => JSON.parse(r.text) as { userId: string })
      .sort((x, y) => x.userId.localeCompare(y.userId));
    await segmentOnBatch(events, { sharedSecret: SECRET, subscription: sub });
    const emulated = got.filter((r) => r.url === '/keys');
    expect(emulated.map(ID)).toEqual(receiver.received.map(ID));
    expect(emulated[0]?.headers['x-user']).toBe(receiver.received[0]?.headers['x-user']);
  });

  it('batch_size over 4000 (or 0.5, or negative) is refused naming the field', () => {
    for (const bad of [4001, 10_000, 0.5, -1]) {
      expect(() =>
        createEmulator({
          sources: [
            {
              writeKey: 'wk',
              webhooksActions: { subscriptions: [subscription('/b', { enable_batching: true, batch_size: bad })] },
            },
          ],
        }),
      ).toThrow(/subscriptions\[0\]\.mapping\.batch_size.*1 to 4000/);
    }
  });
});

describe("hostile bytes through the intake (real HTTP), then Segment's code on the event the emulator built", () => {
  it('escaped lone surrogates, raw U+2028, invalid UTF-8, nulls and a 2^63 integer', async () => {
    const sub = subscription('/wire', {
      headers: { 'X-Lib': { '@path': '$.context.library.name' } },
      data: { p: { '@path': '$.properties' }, t: { '@template': '{{properties.s}}/{{properties.missing}}' } },
    });
    const emulator = createEmulator({
      sources: [{ writeKey: 'wk_wire', webhooksActions: { sharedSecret: SECRET, subscriptions: [whole(), sub] } }],
    });
    const intake = await listenIntake(emulator);
    try {
      const text =
        '{"batch":[{"type":"track","event":"W","userId":"u1","anonymousId":null,"messageId":"wire-1","context":{"library":{"name":"analytics-python","version":null}},' +
        '"properties":{"s":"\\ud83d\\ude00 \\ud800 \u2028 end","big":9223372036854775807,"n":null,"bad":"\u00ff"}}],"writeKey":"wk_wire","sentAt":"2026-11-25T10:00:00+00:00"}';
      const bytes = Buffer.concat([Buffer.from(text.replace('\u00ff', 'X')), Buffer.alloc(0)]);
      // One invalid UTF-8 byte where the X is.
      bytes[bytes.indexOf('"bad":"X"') + 7] = 0xff;
      const res = await fetch(`${intake.url}/v1/batch`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: bytes,
      });
      expect(res.status).toBe(200);
      await emulator.drain();
      const got = [...receiver.received];
      receiver.received.length = 0;
      const event = JSON.parse(got.find((r) => r.url === '/events')!.text) as Record<string, unknown>;
      expect(event.sentAt).toBe('2026-11-25T10:00:00.000Z');
      expect(event).not.toHaveProperty('anonymousId');
      await segmentOnEvent(event, { sharedSecret: SECRET, subscription: sub });
      const emulated = got.filter((r) => r.url === '/wire');
      expect(emulated.map(ID)).toEqual(receiver.received.map(ID));
      expect(emulated[0]!.body.equals(receiver.received[0]!.body)).toBe(true);
    } finally {
      receiver.received.length = 0;
      await intake.close();
      await emulator.close();
    }
  });
});

describe("sentAt: the client's, from the request envelope", () => {
  it("a batch from analytics-node ({ batch, writeKey, sentAt }) gives each Actions event the envelope's sentAt", async () => {
    const emulator = createEmulator({
      sources: [{ writeKey: 'wk_sent', webhooksActions: { subscriptions: [whole()] } }],
    });
    const intake = await listenIntake(emulator);
    try {
      const body = {
        batch: [
          {
            type: 'track',
            event: 'A',
            userId: 'u1',
            messageId: 'node-next-1-a',
            timestamp: '2026-11-25T10:00:00.123Z',
            integrations: {},
            context: { library: { name: '@segment/analytics-node', version: '3.1.0' } },
          },
          {
            type: 'identify',
            userId: 'u1',
            messageId: 'node-next-1-b',
            traits: {},
            sentAt: '2026-11-25T10:00:05.000+01:00',
          },
          { type: 'track', event: 'C', userId: 'u1', messageId: 'node-next-1-c', sentAt: null },
        ],
        writeKey: 'wk_sent',
        sentAt: '2026-11-25T10:00:06.789Z',
      };
      const res = await fetch(`${intake.url}/v1/batch`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(200);
      const single = await fetch(`${intake.url}/v1/track`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Basic ${Buffer.from('wk_sent:').toString('base64')}`,
        },
        body: JSON.stringify({ event: 'D', userId: 'u1', messageId: 'single-d', sentAt: 1795600800000 }),
      });
      expect(single.status).toBe(200);
      await emulator.drain();
      const events = Object.fromEntries(receiver.received.map((r) => [r.json.messageId as string, r.json]));
      expect(events['node-next-1-a']?.sentAt).toBe('2026-11-25T10:00:06.789Z');
      // A call's own sentAt (analytics.js puts one on each event) wins over the envelope's.
      expect(events['node-next-1-b']?.sentAt).toBe('2026-11-25T09:00:05.000Z');
      expect(events['node-next-1-c']?.sentAt).toBe('2026-11-25T10:00:06.789Z');
      expect(events['single-d']?.sentAt).toBe('2026-11-25T10:00:00.000Z');
      for (const e of Object.values(events)) expect(e).not.toHaveProperty('writeKey');
    } finally {
      await intake.close();
      await emulator.close();
    }
  });

  it('classic messages still carry no sentAt', async () => {
    const emulator = createEmulator({
      sources: [
        { writeKey: 'wk_classic', webhooks: { enabled: true, endpoints: [{ url: `${receiver.url}/classic` }] } },
      ],
    });
    const intake = await listenIntake(emulator);
    try {
      const res = await fetch(`${intake.url}/v1/batch`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          batch: [{ type: 'track', event: 'A', userId: 'u1' }],
          writeKey: 'wk_classic',
          sentAt: '2026-11-25T10:00:06.789Z',
        }),
      });
      expect(res.status).toBe(200);
      await emulator.drain();
      expect(receiver.received).toHaveLength(1);
      expect(receiver.received[0]!.json).not.toHaveProperty('sentAt');
    } finally {
      await intake.close();
      await emulator.close();
    }
  });
});

export type { DeliveryRecord };
