// Issue #30 item 3, over real HTTP (core's node listener): a signed body with `12345678901234567890`
// verifies; the handler learns where JSON parsing changed a number (`ctx.lossyNumbers`, found in the
// raw bytes) and, with `bigNumbers: 'string'`, gets its exact digits. Classic messages, whole Actions
// events, mapped payloads, batch elements and `enqueue` handoffs alike.
import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { startHttpServer, type RunningServer } from '../../../test/helpers/servers.js';
import { createReceiver, toNodeListener, type Handoff, type ReceiverOptions } from '../src/index.js';
import type { AnyReceiverOptions } from '../src/internal.js';

const SECRET = 'whsec_big_numbers_91c4';
const hmac = (text: string) => createHmac('sha1', SECRET).update(text).digest('hex');

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

interface Run {
  message: Record<string, unknown>;
  lossyNumbers: readonly string[];
}

/** Serves a receiver whose every handler records its message and `ctx.lossyNumbers`. */
async function serve(options: Record<string, unknown>): Promise<{ url: string; runs: Run[] }> {
  const runs: Run[] = [];
  const record = (message: unknown, ctx: { lossyNumbers: readonly string[] }) =>
    void runs.push({ message: message as Record<string, unknown>, lossyNumbers: ctx.lossyNumbers });
  const handlers =
    options.destination === 'actions'
      ? { on: { track: record }, onPayload: record }
      : options.enqueue === undefined
        ? { onMessage: record }
        : {};
  const listener = toNodeListener(createReceiver({ ...options, ...handlers } as AnyReceiverOptions as ReceiverOptions));
  server = await startHttpServer((req, res) => void listener(req, res));
  return { url: server.url, runs };
}

async function post(url: string, text: string, signed = true) {
  const r = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(signed ? { 'x-signature': hmac(text) } : {}) },
    body: text,
  });
  return { status: r.status, json: (await r.json()) as Record<string, unknown> };
}

let seq = 0;
/** A signed track message's text whose `properties` are `propertiesText`, written by hand (JSON.stringify cannot write big integers). */
function trackText(propertiesText: string): string {
  seq += 1;
  const head = JSON.stringify({
    type: 'track',
    event: 'Order Completed',
    userId: 'u-1',
    messageId: `m-big-${seq}-${Math.random().toString(36).slice(2)}`,
    timestamp: '2026-11-27T10:00:00.000Z',
    version: 1,
  });
  return `${head.slice(0, -1)},"properties":${propertiesText}}`;
}

describe('ctx.lossyNumbers and bigNumbers (classic, node listener)', () => {
  it('12345678901234567890 reaches the handler as 12345678901234567000, with its path (default)', async () => {
    const { url, runs } = await serve({ secret: SECRET });
    const res = await post(url, trackText('{"x":12345678901234567890,"y":12}'));
    expect(res.status).toBe(200);
    expect(runs).toHaveLength(1);
    const properties = runs[0]!.message.properties as Record<string, unknown>;
    expect(properties.x).toBe(12345678901234567000);
    expect(String(properties.x)).toBe('12345678901234567000');
    expect(properties.y).toBe(12);
    expect(runs[0]!.lossyNumbers).toEqual(['properties.x']);
  });

  it("bigNumbers: 'string' delivers its exact digits as a string; other numbers stay numbers", async () => {
    const { url, runs } = await serve({ secret: SECRET, bigNumbers: 'string' });
    const res = await post(url, trackText('{"x":12345678901234567890,"y":12,"z":9007199254740992}'));
    expect(res.status).toBe(200);
    expect(runs[0]!.message.properties).toEqual({ x: '12345678901234567890', y: 12, z: 9007199254740992 });
    expect(runs[0]!.lossyNumbers).toEqual(['properties.x']);
  });

  it('found when read: a handler that changed the message first still gets the paths of the body as signed', async () => {
    const seen: (readonly string[])[] = [];
    const listener = toNodeListener(
      createReceiver({
        secret: SECRET,
        onMessage: (msg, ctx) => {
          // Read after the handler removed one changed number and put a new one in: the body decides.
          const properties = (msg as { properties: Record<string, unknown> }).properties;
          delete properties.x;
          properties.z = Number('12345678901234567890');
          seen.push(ctx.lossyNumbers, ctx.lossyNumbers);
        },
      }),
    );
    server = await startHttpServer((req, res) => void listener(req, res));
    expect((await post(server.url, trackText('{"x":12345678901234567890,"y":98765432109876543210}'))).status).toBe(200);
    expect(seen[0]).toEqual(['properties.x', 'properties.y']);
    expect(seen[1]).toBe(seen[0]); // found once, then kept
    expect(Object.isFrozen(seen[0])).toBe(true);
  });

  it('an ordinary message: empty lossyNumbers, numbers untouched, also with bigNumbers: string', async () => {
    const { url, runs } = await serve({ secret: SECRET, bigNumbers: 'string' });
    const res = await post(url, trackText('{"total":12.5,"count":3,"big":9007199254740991,"neg":-2}'));
    expect(res.status).toBe(200);
    expect(runs[0]!.lossyNumbers).toEqual([]);
    expect(runs[0]!.message.properties).toEqual({ total: 12.5, count: 3, big: 9007199254740991, neg: -2 });
  });

  it('nested arrays and objects, negative numbers, keys with dots, brackets and quotes, in document order', async () => {
    const properties =
      '{"items":[{"id":1},{"id":-98765432109876543210,"tags":[[0,12345678901234567890]]}],' +
      '"order.id":12345678901234567891,"a[0]":12345678901234567892,"say \\"hi\\"":{"n":12345678901234567893},' +
      '"_ok$":12345678901234567894}';
    for (const bigNumbers of ['number', 'string'] as const) {
      const { url, runs } = await serve({ secret: SECRET, bigNumbers });
      expect((await post(url, trackText(properties))).status).toBe(200);
      expect(runs[0]!.lossyNumbers).toEqual([
        'properties.items[1].id',
        'properties.items[1].tags[0][1]',
        'properties["order.id"]',
        'properties["a[0]"]',
        'properties["say \\"hi\\""].n',
        'properties._ok$',
      ]);
      const p = runs[0]!.message.properties as Record<string, any>;
      if (bigNumbers === 'string') {
        expect(p.items[1].id).toBe('-98765432109876543210');
        expect(p.items[1].tags[0]).toEqual([0, '12345678901234567890']);
        expect(p['order.id']).toBe('12345678901234567891');
        expect(p['a[0]']).toBe('12345678901234567892');
        expect(p['say "hi"'].n).toBe('12345678901234567893');
        expect(p.items[0].id).toBe(1);
      } else {
        expect(p.items[1].id).toBe(Number('-98765432109876543210'));
        expect(p['order.id']).toBe(Number('12345678901234567891'));
      }
      await server!.close();
      server = undefined;
    }
  });

  it('a big number inside a string is not reported, nor changed', async () => {
    const { url, runs } = await serve({ secret: SECRET, bigNumbers: 'string' });
    const res = await post(
      url,
      trackText('{"id":"12345678901234567890","note":"x 1e400 y","q":"\\"12345678901234567890"}'),
    );
    expect(res.status).toBe(200);
    expect(runs[0]!.lossyNumbers).toEqual([]);
    expect(runs[0]!.message.properties).toEqual({
      id: '12345678901234567890',
      note: 'x 1e400 y',
      q: '"12345678901234567890',
    });
  });

  it('1e400 (Infinity), 1e-400 (0) and 0.1000000000000000055511151231257827 (0.1) are reported; 1e2, 1.50, 2^53 − 1 are not', async () => {
    const properties =
      '{"huge":1e400,"tiny":-1E-400,"fraction":0.1000000000000000055511151231257827,"e":1e2,"f":1.50,"safe":9007199254740991,"g":0.1}';
    const plain = await serve({ secret: SECRET });
    expect((await post(plain.url, trackText(properties))).status).toBe(200);
    expect(plain.runs[0]!.lossyNumbers).toEqual(['properties.huge', 'properties.tiny', 'properties.fraction']);
    expect(plain.runs[0]!.message.properties).toMatchObject({ huge: Infinity, tiny: -0, fraction: 0.1, e: 100 });
    await server!.close();
    const strings = await serve({ secret: SECRET, bigNumbers: 'string' });
    expect((await post(strings.url, trackText(properties))).status).toBe(200);
    expect(strings.runs[0]!.message.properties).toEqual({
      huge: '1e400',
      tiny: '-1E-400',
      fraction: '0.1000000000000000055511151231257827',
      e: 100,
      f: 1.5,
      safe: 9007199254740991,
      g: 0.1,
    });
  });

  it('bigNumbers: null is the default (a number, still reported)', async () => {
    const { url, runs } = await serve({ secret: SECRET, bigNumbers: null });
    expect((await post(url, trackText('{"x":12345678901234567890}'))).status).toBe(200);
    expect(runs[0]!.message.properties).toEqual({ x: 12345678901234567000 });
    expect(runs[0]!.lossyNumbers).toEqual(['properties.x']);
  });

  it('a repeated key: the value JSON.parse keeps decides', async () => {
    const { url, runs } = await serve({ secret: SECRET, bigNumbers: 'string' });
    const res = await post(url, trackText('{"x":12345678901234567890,"x":5,"y":1,"y":12345678901234567891}'));
    expect(res.status).toBe(200);
    expect(runs[0]!.lossyNumbers).toEqual(['properties.y']);
    expect(runs[0]!.message.properties).toEqual({ x: 5, y: '12345678901234567891' });
  });

  it('enqueue: the handoff carries lossyNumbers, and the message the exact digits with bigNumbers: string', async () => {
    const stored: Handoff[] = [];
    const { url } = await serve({
      secret: SECRET,
      bigNumbers: 'string',
      enqueue: (handoff: Handoff) => void stored.push(handoff),
    });
    expect((await post(url, trackText('{"x":12345678901234567890}'))).status).toBe(200);
    expect(stored).toHaveLength(1);
    expect(stored[0]!.lossyNumbers).toEqual(['properties.x']);
    expect((stored[0]!.message as { properties: unknown }).properties).toEqual({ x: '12345678901234567890' });
    expect(new TextDecoder().decode(stored[0]!.signedBody as Uint8Array)).toContain('"x":12345678901234567890}');
  });

  it('an invalid bigNumbers is refused at creation, naming the option and the allowed values', () => {
    expect(() => createReceiver({ secret: SECRET, bigNumbers: 'bigint' as never, onMessage: () => {} })).toThrow(
      /bigNumbers must be 'number' .* or 'string' .*; got "bigint"/,
    );
    expect(() => createReceiver({ secret: SECRET, bigNumbers: true as never, onMessage: () => {} })).toThrow(
      /bigNumbers must be 'number'/,
    );
  });
});

describe('ctx.lossyNumbers and bigNumbers (Webhooks (Actions), node listener)', () => {
  const event = (messageId: string, propertiesText: string) =>
    `${JSON.stringify({ type: 'track', event: 'Order Completed', userId: 'u-1', messageId, timestamp: '2026-11-27T10:00:00.000Z', receivedAt: '2026-11-27T10:00:01.000Z' }).slice(0, -1)},"properties":${propertiesText}}`;

  it('a whole event and a mapped payload: reported, and as text with bigNumbers: string', async () => {
    for (const bigNumbers of ['number', 'string'] as const) {
      const { url, runs } = await serve({ destination: 'actions', secret: SECRET, bigNumbers });
      const whole = await post(url, event(`a-${bigNumbers}`, '{"x":12345678901234567890}'));
      expect(whole.status).toBe(200);
      expect((await post(url, '{"orderId":12345678901234567890,"total":3}')).status).toBe(200);
      expect(runs.map((r) => r.lossyNumbers)).toEqual([['properties.x'], ['orderId']]);
      const expected = bigNumbers === 'string' ? '12345678901234567890' : 12345678901234567000;
      expect((runs[0]!.message.properties as Record<string, unknown>).x).toBe(expected);
      expect(runs[1]!.message).toEqual({ orderId: expected, total: 3 });
      await server!.close();
      server = undefined;
    }
  });

  it('batch elements: each handler gets its own paths, from the element; the signature still matches the first element', async () => {
    for (const bigNumbers of ['number', 'string'] as const) {
      const first = event(`b-1-${bigNumbers}`, '{"n":1}');
      const text = `[${first},${event(`b-2-${bigNumbers}`, '{"x":12345678901234567890}')},{"id":-12345678901234567890}]`;
      // The sender signs JSON.stringify of the first element, as it holds it.
      const signature = hmac(JSON.stringify(JSON.parse(first)));
      const { url, runs } = await serve({
        destination: 'actions',
        secret: SECRET,
        insecureAcceptBatches: true,
        bigNumbers,
      });
      const r = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-signature': signature },
        body: text,
      });
      expect(r.status).toBe(200);
      expect(runs.map((run) => run.lossyNumbers)).toEqual([[], ['properties.x'], ['id']]);
      const string = bigNumbers === 'string';
      expect((runs[1]!.message.properties as Record<string, unknown>).x).toBe(
        string ? '12345678901234567890' : 12345678901234567000,
      );
      expect(runs[2]!.message).toEqual({ id: string ? '-12345678901234567890' : -12345678901234567000 });
      await server!.close();
      server = undefined;
    }
  });

  it("accept() of a batch: the batch's context lists every element's paths, from the batch", async () => {
    const first = event('a-1', '{"n":1}');
    const text = `[${first},${event('a-2', '{"x":12345678901234567890}')},{"id":-12345678901234567890}]`;
    const receiver = createReceiver({
      destination: 'actions',
      secret: SECRET,
      insecureAcceptBatches: true,
      on: { track: () => {} },
    } as AnyReceiverOptions as ReceiverOptions);
    const accepted = await receiver.accept({
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-signature': hmac(JSON.stringify(JSON.parse(first))) },
      rawBody: text,
    });
    expect(accepted.kind === 'batch' && accepted.context.lossyNumbers).toEqual(['[1].properties.x', '[2].id']);
    // Each element's own, from the element.
    expect(accepted.kind === 'batch' && accepted.elements.map((e) => e.context.lossyNumbers)).toEqual([
      [],
      ['properties.x'],
      ['id'],
    ]);
  });

  it('a batch whose signed first element holds a big number still verifies with bigNumbers: string', async () => {
    const first = event('c-1', '{"x":12345678901234567890}');
    const signature = hmac(JSON.stringify(JSON.parse(first)));
    const { url, runs } = await serve({
      destination: 'actions',
      secret: SECRET,
      insecureAcceptBatches: true,
      bigNumbers: 'string',
    });
    const r = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-signature': signature },
      body: `[${first}]`,
    });
    expect(r.status).toBe(200);
    expect((runs[0]!.message.properties as Record<string, unknown>).x).toBe('12345678901234567890');
    expect(runs[0]!.lossyNumbers).toEqual(['properties.x']);
  });
});
