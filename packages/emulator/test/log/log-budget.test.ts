// The delivery log's bounds over real HTTP: plain bodies sent exactly as signed, finished records
// evicted first (oldest first) to stay within maxLogBytes, and pending ones never dropped: the
// library throws LogFullError and the intake answers 503 log_full.
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createEmulator, LogFullError, ManualClock, SettingsError, type Emulator } from '../../src/index.js';
import { listenIntake, type IntakeServer } from '../../src/intake/index.js';

const SECRET = 'budget-secret';
const KEY = 'wk_budget';
const basic = `Basic ${Buffer.from(`${KEY}:`).toString('base64')}`;

const open: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of open.splice(0).reverse()) await close();
});

/** A receiver answering `status` to every request; it keeps each request's body and X-Signature. */
async function receiver(status: () => number) {
  const got: Array<{ body: string; signature: string | undefined }> = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      got.push({ body, signature: req.headers['x-signature'] as string | undefined });
      res.writeHead(status()).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  open.push(() => new Promise((r) => server.close(r)));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, got };
}

function emulatorFor(url: string, maxLogBytes: number, clock = new ManualClock()): Emulator {
  const emulator = createEmulator({
    clock,
    maxLogBytes,
    sources: [{ writeKey: KEY, webhooks: { enabled: true, endpoints: [{ url }], sharedSecret: SECRET } }],
  });
  open.push(() => emulator.close());
  return emulator;
}

const track = (i: number) => ({ userId: `u${i}`, event: 'Budget', properties: { text: `café ${'x'.repeat(200)}` } });

describe('plain bodies', () => {
  it('a record keeps its body as signed: the receiver gets those exact bytes and signature, first attempt and retry', async () => {
    let n = 0;
    const rx = await receiver(() => (++n === 1 ? 503 : 200));
    const emulator = emulatorFor(rx.url, 1_000_000);
    const record = emulator.track(track(1));
    await emulator.drain();
    expect(record.state).toBe('delivered');
    expect(rx.got).toHaveLength(2);
    for (const got of rx.got) {
      expect(got.body).toBe(record.body);
      expect(got.signature).toBe(createHmac('sha1', SECRET).update(record.body).digest('hex'));
    }
    expect(record.signature).toBe(rx.got[0]?.signature);
  });
});

describe('maxLogBytes', () => {
  it('finished records are evicted first, oldest first, to stay within the budget', async () => {
    const rx = await receiver(() => 200);
    const size = Buffer.byteLength(JSON.stringify(track(1)));
    const emulator = emulatorFor(rx.url, size * 6);
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) {
      ids.push(emulator.track(track(i)).id);
      await emulator.drain();
    }
    const kept = emulator.deliveries.map((r) => r.id);
    expect(kept.length).toBeLessThan(10);
    expect(kept).toEqual(ids.slice(ids.length - kept.length)); // the newest are kept
    expect(emulator.deliveryCounts()).toMatchObject({ total: 10, delivered: 10, evicted: 10 - kept.length });
  });

  it('pending records are never dropped: track() throws LogFullError naming maxLogBytes, and works again once they finish', async () => {
    let up = false;
    const rx = await receiver(() => (up ? 200 : 503));
    const emulator = emulatorFor(rx.url, 4 * 1024);
    const taken: string[] = [];
    let refused: unknown;
    for (let i = 0; i < 100 && refused === undefined; i++) {
      try {
        taken.push(emulator.track(track(i)).id);
      } catch (error) {
        refused = error;
      }
    }
    expect(refused).toBeInstanceOf(LogFullError);
    expect((refused as Error).message).toMatch(/maxLogBytes \(4096\).*Nothing of it was accepted/);
    const counts = emulator.deliveryCounts();
    expect(counts.total).toBe(taken.length); // the refused call left no record
    expect(counts.pending).toBe(taken.length);
    up = true;
    await emulator.drain();
    expect(emulator.deliveries.filter((r) => taken.includes(r.id)).every((r) => r.state === 'delivered')).toBe(true);
    expect(emulator.track(track(1000)).state).toBe('pending');
  });

  it('the intake answers 503 log_full with Retry-After when pending records fill the budget', async () => {
    const rx = await receiver(() => 503);
    const emulator = emulatorFor(rx.url, 3 * 1024);
    const intake: IntakeServer = await listenIntake(emulator);
    open.push(() => intake.close());
    const post = (i: number) =>
      fetch(`${intake.url}/v1/track`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: basic },
        body: JSON.stringify({ ...track(i), messageId: `m${i}` }),
      });
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 40; i++) {
      last = await post(i);
      statuses.push(last.status);
      if (last.status !== 200) break;
    }
    expect(statuses.at(-1)).toBe(503);
    expect(last?.headers.get('retry-after')).toBe('5');
    const body = (await last?.json()) as { code: string; message: string };
    expect(body.code).toBe('log_full');
    expect(body.message).toMatch(/maxLogBytes/);
    // Every 200 is a pending record; nothing was dropped.
    expect(emulator.deliveryCounts()).toMatchObject({ pending: statuses.length - 1, evicted: 0 });
  });

  it('refuses a bad maxLogBytes naming it', () => {
    expect(() => createEmulator({ sources: [{ writeKey: 'k' }], maxLogBytes: 0 })).toThrow(SettingsError);
    expect(() => createEmulator({ sources: [{ writeKey: 'k' }], maxLogBytes: -1 })).toThrow(/maxLogBytes/);
  });
});
