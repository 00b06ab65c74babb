// The intake dedupes by messageId like the tracking API: a `(writeKey, messageId)` accepted within the
// window (24 h by default, on the emulator's clock) is acknowledged and recorded as a duplicate, never
// delivered again. Proven with the real @segment/analytics-node resending a batch whose answer a proxy
// dropped (the intake had taken it), and with a ManualClock moving the window.
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { Analytics } from '@segment/analytics-node';
import { afterEach, describe, expect, it } from 'vitest';
import { startCaptureReceiver, type CaptureReceiver } from '../helpers/capture-receiver.js';
import { createEmulator, ManualClock, type Emulator, type EmulatorOptions } from '../../src/index.js';
import { MessageIdWindow } from '../../src/intake/message-id-window.js';
import { listenIntake, type IntakeServer } from '../../src/intake/index.js';

const SECRET = 'dedupe-secret';
const KEY = 'wk_dedupe';
const OTHER = 'wk_dedupe_other';
const basic = (key: string) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;

// A receiver that records every request it gets (hookgate's own receiver would dedupe them itself).
let receiver: CaptureReceiver | undefined;
let emulator: Emulator | undefined;
let intake: IntakeServer | undefined;
const closers: Array<() => Promise<void>> = [];

async function start(options: Partial<EmulatorOptions> = {}) {
  receiver = await startCaptureReceiver();
  const webhooks = { enabled: true, endpoints: [{ url: `${receiver.url}/webhooks` }], sharedSecret: SECRET };
  emulator = createEmulator({
    ...options,
    includeIds: true,
    sources: [
      { writeKey: KEY, webhooks },
      { writeKey: OTHER, webhooks },
    ],
  });
  intake = await listenIntake(emulator);
  return { emulator, intake };
}

afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  await intake?.close();
  await emulator?.close();
  await receiver?.close();
  intake = emulator = receiver = undefined;
});

async function postBatch(batch: object[], key = KEY): Promise<number> {
  const res = await fetch(`${intake!.url}/v1/batch`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: basic(key) },
    body: JSON.stringify({ batch }),
  });
  await res.arrayBuffer();
  return res.status;
}

const track = (messageId: string, event = 'Order Completed') => ({ type: 'track', userId: 'u1', event, messageId });
const deliveredIds = () => receiver!.received.map((r) => r.json.messageId as string | undefined);

/**
 * A TCP proxy in front of the intake that forwards everything, except that on its first connection it
 * drops the intake's answer (destroys the client's socket as the answer arrives): the intake has taken
 * the batch, and the client sees a connection error.
 */
async function answerDroppingProxy(target: string): Promise<{ url: string; connections: () => number }> {
  const { port } = new URL(target);
  let connections = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const first = ++connections === 1;
    const upstream = net.connect(Number(port), '127.0.0.1');
    sockets.add(client).add(upstream);
    client.pipe(upstream);
    upstream.on('data', (chunk: Buffer) => {
      if (first) {
        client.destroy();
        upstream.destroy();
      } else client.write(chunk);
    });
    upstream.on('end', () => client.end());
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
    client.on('close', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy(); // the client keeps its connection alive
      }),
  );
  const address = server.address() as net.AddressInfo;
  return { url: `http://127.0.0.1:${address.port}`, connections: () => connections };
}

describe('dedupe by messageId at the intake', () => {
  it('@segment/analytics-node resends a batch whose answer was dropped: each messageId is delivered once, the resend is logged as duplicates', async () => {
    const { emulator, intake } = await start();
    const requests: Array<{ retryCount: string | undefined }> = [];
    intake.server.prependListener('request', (req) => {
      if (req.url === '/v1/batch') requests.push({ retryCount: req.headers['x-retry-count'] as string | undefined });
    });
    const proxy = await answerDroppingProxy(intake.url);
    const analytics = new Analytics({
      writeKey: KEY,
      host: proxy.url,
      flushAt: 5,
      flushInterval: 10_000,
      maxRetries: 3,
    });
    const errors: unknown[] = [];
    analytics.on('error', (e) => errors.push(e));
    for (let i = 0; i < 5; i++) analytics.track({ userId: 'user_1', event: `Step ${i}`, properties: { i } });
    await analytics.closeAndFlush({ timeout: 20_000 });
    expect(errors).toEqual([]);

    // The client really resent: the same batch twice, the second with x-retry-count.
    expect(requests.map((r) => r.retryCount)).toEqual([undefined, '1']);
    expect(proxy.connections()).toBeGreaterThanOrEqual(2);

    await emulator.drain();
    const ids = deliveredIds();
    expect(ids).toHaveLength(5);
    expect(new Set(ids).size).toBe(5);
    expect(ids.every((id) => typeof id === 'string' && id.startsWith('node-next-'))).toBe(true);

    const records = emulator.deliveries;
    expect(records.map((r) => r.state)).toEqual([...Array(5).fill('delivered'), ...Array(5).fill('filtered')]);
    for (let i = 0; i < 5; i++) {
      const dup = records[5 + i]!;
      expect(dup.duplicateOf).toBe(records[i]!.id);
      expect(dup.reason).toBe(
        `duplicate: messageId ${JSON.stringify((dup.message as { messageId?: string } | undefined)?.messageId)} was already accepted as ${records[i]!.id}, within the 24 h dedupe window; acknowledged and not delivered again`,
      );
    }

    // A duplicate keeps the message it would have sent (built when read): the same message as the first.
    expect(records[5]!.message).toEqual(records[0]!.message);
    // The inspector says why it was not sent, and links the first record.
    const detail = (await (await fetch(`${intake.url}/_hookgate/ui/api/deliveries/${records[5]!.id}`)).json()) as {
      filteredBecause: string;
      duplicateOf: string;
    };
    expect(detail.filteredBecause).toMatch(/^Not sent: duplicate: messageId "node-next-/);
    expect(detail.duplicateOf).toBe(records[0]!.id);
    // The JSON view shows it too.
    const view = (await (await fetch(`${intake.url}/_hookgate/deliveries?state=filtered`)).json()) as {
      deliveries: Array<{ duplicateOf?: string }>;
    };
    expect(view.deliveries.map((d) => d.duplicateOf)).toEqual(
      records
        .slice(0, 5)
        .map((r) => r.id)
        .reverse(),
    );
  }, 60_000);

  it('the window runs on the emulator clock: a ManualClock moves it (default 24 h, and a set window)', async () => {
    const clock = new ManualClock({ start: '2026-11-25T00:00:00.000Z' });
    await start({ clock });
    expect(await postBatch([track('m-1')])).toBe(200);
    await clock.advance(24 * 60 * 60 * 1000 - 1);
    expect(await postBatch([track('m-1')])).toBe(200); // still within 24 h: acknowledged
    await clock.advance(1);
    expect(await postBatch([track('m-1')])).toBe(200); // 24 h after the first: new again
    await clock.runAll();
    await emulator!.drain();
    expect(emulator!.deliveries.map((r) => r.state)).toEqual(['delivered', 'filtered', 'delivered']);
    expect(deliveredIds()).toEqual(['m-1', 'm-1']);
    await intake!.close();
    await emulator!.close();
    await receiver!.close();

    const short = new ManualClock({ start: '2026-11-25T00:00:00.000Z' });
    await start({ clock: short, dedupe: { windowMs: 60_000 } });
    await postBatch([track('m-2')]);
    await short.advance(59_999);
    await postBatch([track('m-2')]);
    await short.advance(1);
    await postBatch([track('m-2')]);
    await short.runAll();
    await emulator!.drain();
    expect(emulator!.deliveries.map((r) => r.duplicateOf !== undefined)).toEqual([false, true, false]);
    expect(emulator!.deliveries[1]!.reason).toContain('within the 60000 ms dedupe window');
  });

  it('the key is (writeKey, messageId); a repeat inside one batch is a duplicate too; calls without messageId are never deduped', async () => {
    await start();
    expect(await postBatch([track('same'), track('same')])).toBe(200);
    expect(await postBatch([track('same')], OTHER)).toBe(200);
    expect(
      await postBatch([
        { type: 'track', userId: 'u1', event: 'No id' },
        { type: 'track', userId: 'u1', event: 'No id' },
      ]),
    ).toBe(200);
    const single = await fetch(`${intake!.url}/v1/track`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: basic(KEY) },
      body: JSON.stringify({ userId: 'u1', event: 'E', messageId: 'same' }),
    });
    expect(single.status).toBe(200);
    await emulator!.drain();
    const records = emulator!.deliveries;
    expect(records.map((r) => [r.writeKey === KEY ? 'key' : 'other', r.state, r.duplicateOf])).toEqual([
      ['key', 'delivered', undefined],
      ['key', 'filtered', records[0]!.id],
      ['other', 'delivered', undefined],
      ['key', 'delivered', undefined],
      ['key', 'delivered', undefined],
      ['key', 'filtered', records[0]!.id],
    ]);
  });

  it('50 concurrent requests with the same official body: its 6 calls delivered once, the other 294 recorded as duplicates', async () => {
    await start();
    const raw = readFileSync(new URL('../fixtures/official-clients/python-analytics-python.json', import.meta.url));
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        fetch(`${intake!.url}/v1/batch`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: basic(KEY) },
          body: raw,
        }).then((res) => res.status),
      ),
    );
    expect(answers.every((s) => s === 200)).toBe(true);
    await emulator!.drain();
    expect(emulator!.deliveryCounts()).toMatchObject({ total: 300, delivered: 6, filtered: 294, failed: 0 });
    expect(receiver!.received).toHaveLength(6);
    expect(emulator!.deliveries.filter((r) => r.duplicateOf !== undefined)).toHaveLength(294);
  });

  it('dedupe: false delivers a resent messageId again; a bad dedupe option is named', async () => {
    await start({ dedupe: false });
    await postBatch([track('m-3')]);
    await postBatch([track('m-3')]);
    await emulator!.drain();
    expect(deliveredIds()).toEqual(['m-3', 'm-3']);
    expect(() => createEmulator({ dedupe: { windowMs: -1 } })).toThrow(/dedupe\.windowMs/);
    expect(() => createEmulator({ dedupe: { window: 5 } as never })).toThrow(/dedupe/);
  });

  it('memory stays bounded: entries expire with the window, and past maxEntries the oldest goes first', () => {
    const window = new MessageIdWindow(1000, 50_000);
    // 20,000 messageIds over 500 ms of the clock, 40 per ms, across two write keys (one expiry order for both).
    for (let i = 0; i < 20_000; i++) window.remember(i % 2 ? 'wk_a' : 'wk_b', `m-${i}`, Math.floor(i / 40), i + 1);
    expect(window.size).toBe(20_000);
    expect(window.firstSeen('wk_b', 'm-0', 999)).toBe(1);
    expect(window.firstSeen('wk_a', 'm-0', 999)).toBeUndefined(); // another write key
    expect(window.firstSeen('wk_a', 'm-39', 999)).toBe(40);
    expect(window.firstSeen('wk_b', 'm-0', 1000)).toBeUndefined();
    expect(window.size).toBe(20_000 - 40);
    expect(window.firstSeen('wk_b', 'm-40', 1000)).toBe(41);
    expect(window.firstSeen('wk_a', 'm-19999', 1499)).toBeUndefined();
    expect(window.size).toBe(0);
    // Remembered again after expiry: a new window from now.
    window.remember('wk_b', 'm-0', 2000, 7);
    expect(window.firstSeen('wk_b', 'm-0', 2999)).toBe(7);

    const capped = new MessageIdWindow(60_000, 3);
    for (const [i, id] of ['a', 'b', 'c', 'd'].entries()) capped.remember(i % 2 ? 'wk_a' : 'wk_b', id, i, i + 1);
    expect(capped.size).toBe(3);
    expect(capped.firstSeen('wk_b', 'a', 10)).toBeUndefined();
    expect([
      capped.firstSeen('wk_a', 'b', 10),
      capped.firstSeen('wk_b', 'c', 10),
      capped.firstSeen('wk_a', 'd', 10),
    ]).toEqual([2, 3, 4]);
    // Past the cap over and over (the ring wraps): always the newest 3.
    for (let i = 0; i < 1000; i++) capped.remember('wk_c', `x-${i}`, 100 + i, 100 + i);
    expect(capped.size).toBe(3);
    expect([
      capped.firstSeen('wk_c', 'x-996', 2000),
      capped.firstSeen('wk_c', 'x-997', 2000),
      capped.firstSeen('wk_c', 'x-999', 2000),
    ]).toEqual([undefined, 1097, 1099]);
  });
});
