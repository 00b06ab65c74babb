// Bodies kept deflated once many are pending (`packBodiesOver`): what is sent, signed, retried, replayed
// and read back must be the exact bytes of the message, whatever form the emulator keeps them in.
import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createEmulator,
  DEFAULT_PACK_BODIES_OVER,
  ManualClock,
  SettingsError,
  type DeliveryRecord,
  type Emulator,
  type EmulatorOptions,
} from '@hookgate/emulator';
import { startCaptureReceiver, type Answer, type CaptureReceiver, type Received } from './helpers/capture-receiver.js';

const SECRET = 'packed-secret';
/** Bodies per deflate call at most, and the bytes that close a group (src/log/body-packer.ts). */
const GROUP_BODIES = 8;
const GROUP_BYTES = 8 * 1024;
type Stored = { packed?: { bytes: number; length: number; dictionary: unknown } };
const storedOf = (rec: DeliveryRecord) => (rec as unknown as { stored: Stored }).stored;
/** Lets the current job end: a part-full group is packed then. */
const nextJob = () => new Promise((resolve) => setImmediate(resolve));
const until = async (ok: () => boolean) => {
  for (let i = 0; i < 500 && !ok(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
};
const hmac = (text: string) => createHmac('sha1', SECRET).update(text, 'utf8').digest('hex');

/** Properties that differ per message and carry non-ASCII text (multi-byte UTF-8, a `\u2028`, an emoji). */
const props = (i: number) => ({
  orderId: `ord_${i.toString(16).padStart(8, '0')}`,
  note: `café — ${'日本語'.repeat(i % 5)} \u2028 🎉 #${i}`,
  items: Array.from({ length: 1 + (i % 4) }, (_, k) => ({ sku: `SKU-${i * 7 + k}`, price: (i * 13 + k) / 100 })),
});

describe('packed bodies (packBodiesOver)', () => {
  const open: Array<{ close(): Promise<unknown> }> = [];
  afterEach(async () => {
    for (const o of open.splice(0).reverse()) await o.close();
  });
  const receiver = async (answer?: (req: Received, index: number) => Answer) => {
    const r = await startCaptureReceiver(answer);
    open.push(r);
    return r;
  };
  const emulator = (r: CaptureReceiver, options: Partial<EmulatorOptions>): Emulator => {
    const e = createEmulator({
      clock: new ManualClock(),
      sources: [
        { writeKey: 'wk', webhooks: { enabled: true, endpoints: [{ url: `${r.url}/hook` }], sharedSecret: SECRET } },
      ],
      ...options,
    });
    open.push(e);
    return e;
  };

  it('packBodiesOver: 0 packs every body; the receiver gets the exact signed bytes, first attempt and retries alike', async () => {
    const seen = new Set<string>();
    const r = await receiver((req) => (seen.has(req.text) ? 200 : (seen.add(req.text), 503))); // each message: 503 once, then 200
    const e = emulator(r, { packBodiesOver: 0 });
    const records = Array.from({ length: 40 }, (_, i) =>
      e.track({ userId: `u${i}`, event: 'Order Completed', properties: props(i) }),
    );
    await nextJob();
    // Kept packed, GROUP_BODIES to a deflate call: each group's stored bytes are fewer than its bodies' own
    // length, and each body's length is still what Content-Length says.
    const groups = new Set(records.map((rec) => storedOf(rec).packed));
    expect(groups.has(undefined)).toBe(false);
    expect(groups.size).toBe(40 / GROUP_BODIES); // these bodies are short: eight to a group
    for (const group of groups) expect(group?.bytes).toBeLessThan((group?.length ?? 0) * 0.6);
    await e.drain();
    expect(r.received).toHaveLength(80);
    for (const rec of records) {
      expect(rec.state).toBe('delivered');
      const got = r.received.filter((q) => q.text === rec.body);
      expect(got).toHaveLength(2); // the 503'd attempt and its retry: same bytes
      for (const q of got) {
        expect(q.headers['x-signature']).toBe(hmac(q.text));
        expect(q.headers['x-signature']).toBe(rec.signature);
        expect(Number(q.headers['content-length'])).toBe(Buffer.byteLength(q.text));
      }
      expect(rec.message).toEqual(JSON.parse(rec.body));
      expect((rec.message as { properties: unknown }).properties).toEqual(props(records.indexOf(rec)));
      expect(rec.attempts[0]?.requestHeaders['Content-Length']).toBe(String(Buffer.byteLength(rec.body)));
    }
  });

  it('bodies stay unpacked until the pending ones pass the budget, then new ones are packed', async () => {
    const r = await receiver(() => 'hang'); // nothing finishes: every body stays pending
    const e = emulator(r, { packBodiesOver: 4096, timeoutMs: 60_000 });
    const records = Array.from({ length: 30 }, (_, i) =>
      e.track({ userId: `u${i}`, event: 'Order Completed', properties: props(i) }),
    );
    // A group is packed once full; the last, part-full one at the end of the job that opened it.
    const packedAtOnce = records.map((rec) => storedOf(rec).packed !== undefined);
    await nextJob();
    const packed = records.map((rec) => storedOf(rec).packed !== undefined);
    expect(packedAtOnce.filter(Boolean).length % GROUP_BODIES).toBe(0);
    expect(packedAtOnce.filter(Boolean).length).toBeLessThan(packed.filter(Boolean).length);
    let pendingBytes = 0;
    records.forEach((rec, i) => {
      expect(packed[i], `record ${i} after ${pendingBytes} pending bytes`).toBe(pendingBytes >= 4096);
      pendingBytes += Buffer.byteLength(rec.body);
    });
    expect(packed.filter(Boolean).length).toBeGreaterThan(10);
    // Every body reads back exactly, and went out exactly, whichever group it is in.
    records.forEach((rec, i) => expect((rec.message as { properties: unknown }).properties).toEqual(props(i)));
    await until(() => r.received.length === 30);
    expect(r.received.map((q) => q.text).sort()).toEqual(records.map((rec) => rec.body).sort());
  });

  it('bodies of different lengths and scripts in one group, read in any order, come back exact', async () => {
    const r = await receiver(() => 200);
    const e = emulator(r, { packBodiesOver: 0 });
    const sizes = [0, 1, 5, 40, 3, 200, 7];
    const records = sizes.map((n, i) =>
      e.track({ userId: `u${i}`, event: 'Order Completed', properties: { ...props(i), pad: '€'.repeat(n * 50) } }),
    );
    const bodies = records.map((rec) => rec.body);
    await nextJob();
    // Groups close at GROUP_BYTES: the first five bodies pass it, the 30 KB one is a group of its own,
    // and the last one is packed alone when the job ends.
    const lengths = bodies.map((b) => Buffer.byteLength(b));
    expect(lengths.slice(0, 4).reduce((a, b) => a + b)).toBeLessThan(GROUP_BYTES);
    expect(lengths.slice(0, 5).reduce((a, b) => a + b)).toBeGreaterThanOrEqual(GROUP_BYTES);
    expect(lengths[5]).toBeGreaterThan(GROUP_BYTES);
    const group = (i: number) => storedOf(records[i] as DeliveryRecord).packed;
    expect(new Set([0, 1, 2, 3, 4].map(group)).size).toBe(1);
    expect(new Set([group(0), group(5), group(6)]).size).toBe(3);
    expect(group(5)?.length).toBe(lengths[5]);
    for (const i of [6, 0, 3, 1, 5, 2, 4, 4, 0]) {
      const rec = records[i] as DeliveryRecord;
      expect(rec.body).toBe(bodies[i]);
      expect((rec as unknown as { bodyBytes: Buffer }).bodyBytes.equals(Buffer.from(bodies[i] as string))).toBe(true);
      expect(rec.signature).toBe(hmac(bodies[i] as string));
    }
    await e.drain();
    expect(r.received.map((q) => q.text).sort()).toEqual([...bodies].sort());
  });

  it('a large body is packed alone, never in the group of small ones: reading a small body inflates little', async () => {
    const r = await receiver(() => 200);
    const e = emulator(r, { packBodiesOver: 0 });
    const big = { ...props(1), blob: 'x'.repeat(3 * GROUP_BYTES) };
    const records = [props(2), props(3), big, props(4)].map((p, i) =>
      e.track({ userId: `u${i}`, event: 'E', properties: p }),
    );
    const bodies = records.map((rec) => rec.body);
    await nextJob();
    const group = (i: number) => storedOf(records[i] as DeliveryRecord).packed;
    expect(group(0)).toBe(group(1));
    expect(new Set([group(0), group(2), group(3)]).size).toBe(3);
    expect(group(2)?.length).toBe(Buffer.byteLength(bodies[2] as string));
    for (const i of [0, 1, 3]) expect(group(i)?.length).toBeLessThan(GROUP_BYTES);
    records.forEach((rec, i) => expect(rec.body).toBe(bodies[i]));
    await e.drain();
    expect(r.received.map((q) => q.text).sort()).toEqual([...bodies].sort());
  });

  it('when deflate fails, the bodies stay unpacked and are sent exact: packing never decides what is sent', async () => {
    const r = await receiver(() => 200);
    const lines: string[] = [];
    // A debug function that throws too: the failure must still not escape (packing may run in a microtask).
    const e = emulator(r, {
      packBodiesOver: 0,
      debug: (line) => {
        lines.push(line);
        if (line.includes('packing bodies failed')) throw new Error('debug sink broke');
      },
    });
    // Break deflate on the class of the dictionary this emulator made (whichever build it comes from).
    const first = e.track({ userId: 'u0', event: 'E', properties: props(0) });
    await nextJob();
    const dictionary = storedOf(first).packed?.dictionary as object;
    expect(dictionary).toBeDefined();
    const proto = Object.getPrototypeOf(dictionary) as { deflate: (b: Uint8Array) => Buffer };
    const deflate = proto.deflate;
    proto.deflate = () => {
      throw new Error('zlib: out of memory');
    };
    try {
      const records = Array.from({ length: 6 }, (_, i) =>
        e.track({ userId: `u${i}`, event: 'E', properties: props(i + 1) }),
      );
      await nextJob();
      for (const rec of records) expect(storedOf(rec).packed).toBeUndefined();
      expect(lines.some((l) => l.includes('packing bodies failed') && l.includes('out of memory'))).toBe(true);
      await e.drain();
      expect(r.received.map((q) => q.text).sort()).toEqual([first, ...records].map((rec) => rec.body).sort());
      for (const q of r.received) expect(q.headers['x-signature']).toBe(hmac(q.text));
    } finally {
      proto.deflate = deflate;
    }
  });

  it('a record replayed while its group is still open keeps exact bytes, as does the original once packed', async () => {
    const r = await receiver(() => 200);
    const e = emulator(r, { packBodiesOver: 0 });
    const rec = e.track({ userId: 'u1', event: 'E', properties: props(9) });
    const body = rec.body;
    const again = e.replay(rec.id); // same job: the original's group is open, its body unpacked
    await nextJob();
    expect(storedOf(rec).packed).toBeDefined();
    // The replay is packed too: it does not keep the staging slab its original's body waited in.
    expect(storedOf(again).packed).toBeDefined();
    expect(storedOf(again).packed?.length).toBe(Buffer.byteLength(body) * 2);
    expect(rec.body).toBe(body);
    expect(again.body).toBe(body);
    await e.drain();
    expect(r.received.map((q) => q.text)).toEqual([body, body]);
  });

  it('the default budget packs nothing in ordinary traffic', async () => {
    expect(DEFAULT_PACK_BODIES_OVER).toBe(2 * 1024 * 1024);
    const r = await receiver(() => 200);
    const e = emulator(r, {});
    const rec = e.track({ userId: 'u1', event: 'E', properties: props(3) });
    expect((rec as unknown as { stored: { packed?: unknown } }).stored.packed).toBeUndefined();
    await e.drain();
    expect(r.received[0]?.text).toBe(rec.body);
  });

  it('a packed record replays with the same bytes and signature', async () => {
    const r = await receiver(() => 200);
    const e = emulator(r, { packBodiesOver: 0 });
    const rec = e.track({ userId: 'u1', event: 'E', properties: props(7) });
    await e.drain();
    const again = e.replay(rec.id);
    await e.drain();
    expect(again.body).toBe(rec.body);
    expect(again.signature).toBe(rec.signature);
    expect(r.received.map((q) => q.text)).toEqual([rec.body, rec.body]);
    expect(r.received[1]?.headers['x-signature']).toBe(hmac(rec.body));
  });

  it('sources keep their own dictionaries; an unsigned source packs too', async () => {
    const r = await receiver(() => 200);
    const e = createEmulator({
      clock: new ManualClock(),
      packBodiesOver: 0,
      sources: [
        { writeKey: 'a', webhooks: { enabled: true, endpoints: [{ url: `${r.url}/a` }], sharedSecret: SECRET } },
        { writeKey: 'b', webhooks: { enabled: true, endpoints: [{ url: `${r.url}/b` }] } },
      ],
    });
    open.push(e);
    const sent = [
      e.track({ userId: 'u1', event: 'A', properties: props(1) }, { writeKey: 'a' }),
      e.identify({ userId: 'u2', traits: { name: 'Zoë', plan: 'pro' } }, { writeKey: 'b' }),
      e.track({ userId: 'u3', event: 'A', properties: props(2) }, { writeKey: 'a' }),
    ];
    await e.drain();
    expect(r.received.map((q) => q.text).sort()).toEqual(sent.map((s) => s.body).sort());
    expect(r.received.find((q) => q.url === '/b')?.headers['x-signature']).toBeUndefined();
  });

  it('refuses a bad packBodiesOver naming it', () => {
    for (const bad of [-1, Number.NaN, '8MB', {}]) {
      expect(() => createEmulator({ sources: [{ writeKey: 'wk' }], packBodiesOver: bad as unknown as number })).toThrow(
        SettingsError,
      );
      expect(() => createEmulator({ sources: [{ writeKey: 'wk' }], packBodiesOver: bad as unknown as number })).toThrow(
        /packBodiesOver/,
      );
    }
    // null means "not given", as for every option: the default applies.
    for (const ok of [Infinity, 0, null])
      expect(() =>
        createEmulator({ sources: [{ writeKey: 'wk' }], packBodiesOver: ok as number }).close(),
      ).not.toThrow();
  });
});

describe('BodyDictionary', () => {
  it('round-trips bodies of every size, larger than its window and than the dictionary included', async () => {
    const { BodyDictionary } = await import('../src/log/body-dictionary.js');
    const sample = Buffer.from(JSON.stringify({ type: 'track', event: 'E', properties: props(1) }));
    const dictionary = new BodyDictionary(sample);
    for (const size of [0, 1, 63, 64, 1000, 4096, 4097, 40_000, 300_000]) {
      const body = Buffer.from(
        Array.from({ length: size }, (_, k) => String.fromCharCode(32 + ((k * 7919) % 90))).join(''),
      );
      const packed = dictionary.deflate(body);
      const back = dictionary.inflate(packed, body.length);
      expect(back.equals(body), `size ${size}`).toBe(true);
    }
    // A body like its source's packs to well under half its size.
    const like = Buffer.from(JSON.stringify({ type: 'track', event: 'E', properties: props(2) }));
    expect(dictionary.deflate(like).length).toBeLessThan(like.length * 0.5);
  });
});

describe('BodyDictionary.inflateKept', () => {
  it('keeps the last small result for its key, never a large one, and only weakly holds the key', async () => {
    const { BodyDictionary } = await import('../src/log/body-dictionary.js');
    const small = Buffer.from(JSON.stringify({ type: 'track', event: 'E', properties: props(4) }));
    const large = Buffer.from('y'.repeat(64 * 1024));
    const dictionary = new BodyDictionary(small);
    const [keyA, keyB] = [{}, {}];
    const packedSmall = dictionary.deflate(small);
    const packedLarge = dictionary.deflate(large);
    const first = dictionary.inflateKept(keyA, packedSmall, small.length);
    expect(first.equals(small)).toBe(true);
    expect(dictionary.inflateKept(keyA, packedSmall, small.length)).toBe(first); // kept: no second inflate
    const big1 = dictionary.inflateKept(keyB, packedLarge, large.length);
    expect(big1.equals(large)).toBe(true);
    const big2 = dictionary.inflateKept(keyB, packedLarge, large.length);
    expect(big2).not.toBe(big1); // not kept: 64 KB would be held for nothing
    expect(big2.equals(large)).toBe(true);
    expect(dictionary.inflateKept(keyA, packedSmall, small.length)).toBe(first); // the small one is still the kept one
  });
});

describe('SourceDictionaries', () => {
  it("packs with the source's first body, then with its first eight; every body inflates with the dictionary it was packed with", async () => {
    const { BodyDictionary, SourceDictionaries } = await import('../src/log/body-dictionary.js');
    const dictionaries = new SourceDictionaries();
    const bodies = Array.from({ length: 200 }, (_, i) =>
      Buffer.from(JSON.stringify({ type: 'track', event: 'Order Completed', properties: props(i) })),
    );
    const packed = bodies.map((body) => {
      const dictionary = dictionaries.for(body);
      return { dictionary, bytes: dictionary.deflate(body) };
    });
    // The first body's dictionary serves bodies 1..7; the eighth body switches to the eight-body one, for good.
    expect(packed[1]?.dictionary).toBe(packed[0]?.dictionary);
    expect(packed[7]?.dictionary).not.toBe(packed[6]?.dictionary);
    expect(new Set(packed.slice(7).map((p) => p.dictionary)).size).toBe(1);
    packed.forEach((p, i) =>
      expect(p.dictionary.inflate(p.bytes, (bodies[i] as Buffer).length).equals(bodies[i] as Buffer), `body ${i}`).toBe(
        true,
      ),
    );
    // The wider dictionary packs later bodies smaller than the first body alone does.
    const first = new BodyDictionary(bodies[0] as Buffer);
    const later = bodies.slice(20);
    const withFirst = later.reduce((sum, b) => sum + first.deflate(b).length, 0);
    const withEight = packed.slice(20).reduce((sum, p) => sum + p.bytes.length, 0);
    expect(withEight).toBeLessThan(withFirst * 0.95);
  });

  it('a damaged packed body is an error naming the body store, never wrong bytes', async () => {
    const { BodyDictionary } = await import('../src/log/body-dictionary.js');
    const body = Buffer.from(JSON.stringify({ type: 'track', event: 'E', properties: props(3) }));
    const dictionary = new BodyDictionary(body);
    const packed = dictionary.deflate(body);
    expect(() => dictionary.inflate(packed, body.length + 5)).toThrow(/body store is damaged/);
  });
});
